import { z } from "zod";
import { componentSchema, incidentUpdateSchema, postmortemSchema, presenceSchema } from "@/lib/incident";

export const CHANGE_FIELDS = [
  "kind", "title", "status", "impact", "url", "startedAt", "resolvedAt", "scheduledFor", "scheduledUntil",
  "components", "update", "postmortem", "presence",
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

export const SCALAR_FIELDS = [
  "kind", "title", "status", "impact", "url", "startedAt", "resolvedAt", "scheduledFor", "scheduledUntil",
] as const;
export type ScalarField = (typeof SCALAR_FIELDS)[number];

const changeKindSchema = z.enum(["added", "removed", "changed"]);
export type ChangeKind = z.infer<typeof changeKindSchema>;

const scalarChangeSchema = z.object({
  field: z.enum(SCALAR_FIELDS),
  kind: changeKindSchema,
  before: z.string().nullable(),
  after: z.string().nullable(),
});
const componentsChangeSchema = z.object({
  field: z.literal("components"),
  kind: changeKindSchema,
  before: z.array(componentSchema).nullable(),
  after: z.array(componentSchema).nullable(),
});
const updateChangeSchema = z.object({
  field: z.literal("update"),
  kind: changeKindSchema,
  updateId: z.string(),
  before: incidentUpdateSchema.nullable(),
  after: incidentUpdateSchema.nullable(),
});
const postmortemChangeSchema = z.object({
  field: z.literal("postmortem"),
  kind: changeKindSchema,
  before: postmortemSchema.nullable(),
  after: postmortemSchema.nullable(),
});
const presenceChangeSchema = z.object({
  field: z.literal("presence"),
  kind: changeKindSchema,
  before: presenceSchema.nullable(),
  after: presenceSchema.nullable(),
});

export const changeSchema = z.union([
  scalarChangeSchema,
  componentsChangeSchema,
  updateChangeSchema,
  postmortemChangeSchema,
  presenceChangeSchema,
]);
export type Change = z.infer<typeof changeSchema>;
export type ScalarChange = z.infer<typeof scalarChangeSchema>;
export type UpdateChange = z.infer<typeof updateChangeSchema>;

/** Before/after null means "not present"; both present means changed. */
export function changeKindOf(before: unknown, after: unknown): ChangeKind {
  if (before === null) return "added";
  if (after === null) return "removed";
  return "changed";
}

export const FIELD_LABELS: Record<ChangeField, string> = {
  kind: "Kind",
  title: "Title",
  status: "Status",
  impact: "Impact",
  url: "Link",
  startedAt: "Started",
  resolvedAt: "Resolved",
  scheduledFor: "Scheduled start",
  scheduledUntil: "Scheduled end",
  components: "Components",
  update: "Update",
  postmortem: "Postmortem",
  presence: "Feed presence",
};
