/**
 * What the simulated vendors write: titles, update bodies and postmortems, picked per cycle from
 * a few plausible subjects. Bodies keep characters that need escaping (&, >, ') so every format's
 * escaping is exercised.
 */
import type { Component } from "@/lib/incident";
import { MINUTE_MS } from "@/simulator/scenario-script";
import { componentIdOf } from "@/simulator/components";
import type { SeededStream } from "@/simulator/seeded";

interface Subject {
  subject: string;
  component: string;
}

const SUBJECTS: readonly [Subject, ...Subject[]] = [
  { subject: "API requests", component: "API" },
  { subject: "webhook deliveries", component: "Webhooks" },
  { subject: "dashboard logins", component: "Dashboard" },
  { subject: "search indexing", component: "Search" },
  { subject: "email notifications", component: "Notifications" },
  { subject: "file uploads", component: "Storage" },
  { subject: "build pipelines", component: "CI Runners" },
  { subject: "card payments", component: "Billing" },
];

function componentOf(vendor: string, seed: number, name: string): Component {
  return { id: componentIdOf(vendor, seed, name), name };
}

/** One of the vendor's components, drawn from the stream as an incident's subject is. */
export function drawComponent(vendor: string, seed: number, stream: SeededStream): Component {
  return componentOf(vendor, seed, stream.pick(SUBJECTS).component);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function hhmm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

export interface CycleTexts {
  component: Component;
  title: string;
  /** Update bodies by update number (1-based), and the rewritten first update. */
  bodies: readonly string[];
  rewritten: string;
}

/** The texts of one incident of a cycle, its subject drawn from the cycle's stream. */
export function textsOf(vendor: string, seed: number, role: string, stream: SeededStream): CycleTexts {
  const s = stream.pick(SUBJECTS);
  const component = componentOf(vendor, seed, s.component);
  if (role === "maintenance") {
    return {
      component,
      title: `Scheduled maintenance of the ${s.component} database`,
      bodies: [
        `We will upgrade the ${s.component} database. ${capitalized(s.subject)} may be briefly interrupted during the window.`,
        "Scheduled maintenance is currently in progress. We will provide updates as necessary.",
        "The scheduled maintenance has been completed.",
      ],
      rewritten: "",
    };
  }
  if (role === "deleted") {
    return {
      component,
      title: `Degraded performance for ${s.subject}`,
      bodies: [`We're looking into reports of slow ${s.subject}.`],
      rewritten: "",
    };
  }
  if (role === "late") {
    return {
      component,
      title: `Increased latency for ${s.subject}`,
      bodies: [
        `We are investigating increased latency for ${s.subject}, which began earlier today.`,
        `This incident has been resolved. Latency for ${s.subject} is back to normal.`,
      ],
      rewritten: "",
    };
  }
  if (role === "backdated") {
    return {
      component,
      title: `Delays in ${s.subject}`,
      bodies: [
        `We are investigating delays in ${s.subject}.`,
        `A fix has been applied & we are monitoring ${s.subject}.`,
        `The delays in ${s.subject} have been resolved.`,
      ],
      rewritten: "",
    };
  }
  return {
    component,
    title: `Elevated error rates for ${s.subject}`,
    bodies: [
      `We are investigating elevated error rates for ${s.subject}.`,
      `The cause has been identified: a configuration change in the ${s.component} tier. We are rolling it back & watching error rates.`,
      "A fix has been rolled out and we are monitoring the results.",
      `This incident has been resolved. Error rates for ${s.subject} are back to normal.`,
    ],
    // Words put inside the posted text, as vendors widen what an update names: an edit, where a
    // sentence added after it would only extend it.
    rewritten: `We are investigating elevated error rates for ${s.subject} in the EU and US regions.`,
  };
}

/** The postmortem of the main incident, as first published and as edited later. */
export function postmortemOf(texts: CycleTexts, startedMs: number, resolvedMs: number, edited: boolean): string {
  const from = hhmm(edited ? startedMs - 10 * MINUTE_MS : startedMs);
  const day = new Date(startedMs).toISOString().slice(0, 10);
  const followUp = edited
    ? `Follow-up: changes to the ${texts.component.name} tier now roll out region by region, and roll back when error rates rise more than 1% above baseline.`
    : `Follow-up: changes to the ${texts.component.name} tier now roll out region by region.`;
  return [
    `Between ${from} and ${hhmm(resolvedMs)} UTC on ${day}, some requests to ${texts.component.name} failed.`,
    `Root cause: a configuration change cut the ${texts.component.name} connection pool to a tenth of its usual size.`,
    followUp,
  ].join("\n\n");
}
