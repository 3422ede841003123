import { z } from "zod";

const envSchema = z.object({
  REDLINE_DB: z.string().min(1).default("data/redline.db"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
});

export type Env = z.infer<typeof envSchema>;

/** The environment, read once and validated: a bad value stops the process with its name. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`invalid environment: ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}
