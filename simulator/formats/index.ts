/**
 * Every wire format the simulator can serve, keyed by the name of the Redline parser that reads
 * it. A new format is one file exporting a WireFormat (see wire-format.ts) plus one line here.
 */
import { awsLegacyFormat } from "@/simulator/formats/aws-legacy";
import { azureRssFormat } from "@/simulator/formats/azure";
import { betterstackIndexFormat, betterstackRssFormat } from "@/simulator/formats/betterstack";
import { cachetV2Format, cachetV3Format } from "@/simulator/formats/cachet";
import { cachetV2ComponentsFormat, cachetV2GroupsFormat, cachetV3ComponentsFormat } from "@/simulator/formats/cachet-components";
import { gcpFormat } from "@/simulator/formats/gcp";
import { incidentioFeedFormat, incidentioIncidentsFormat, incidentioWidgetFormat } from "@/simulator/formats/incidentio";
import { instatusComponentsFormat, instatusSummaryFormat } from "@/simulator/formats/instatus";
import { rssFormat } from "@/simulator/formats/rss";
import { slackFormat, slackHistoryFormat } from "@/simulator/formats/slack";
import { statuspageAtomFormat, statuspageRssFormat } from "@/simulator/formats/statuspage-feed";
import { statuspageIncidentPageFormat } from "@/simulator/formats/statuspage-incident-page";
import {
  statuspageComponentsFormat,
  statuspageIncidentFormat,
  statuspageIncidentsFormat,
  statuspageSummaryFormat,
} from "@/simulator/formats/statuspage-json";
import type { WireFormat } from "@/simulator/formats/wire-format";

export const WIRE_FORMATS: readonly WireFormat[] = [
  statuspageIncidentsFormat,
  statuspageSummaryFormat,
  statuspageComponentsFormat,
  statuspageIncidentFormat,
  statuspageAtomFormat,
  // The same history.atom, read by the parser Statuspage's live plan falls back to.
  { ...statuspageAtomFormat, parser: "statuspage-atom-fallback" },
  statuspageRssFormat,
  statuspageIncidentPageFormat,
  gcpFormat,
  slackFormat,
  slackHistoryFormat,
  awsLegacyFormat,
  incidentioIncidentsFormat,
  incidentioFeedFormat,
  incidentioWidgetFormat,
  instatusSummaryFormat,
  instatusComponentsFormat,
  betterstackIndexFormat,
  betterstackRssFormat,
  cachetV2Format,
  cachetV3Format,
  cachetV2ComponentsFormat,
  cachetV2GroupsFormat,
  cachetV3ComponentsFormat,
  azureRssFormat,
  rssFormat,
];

export function getWireFormat(parser: string): WireFormat | undefined {
  return WIRE_FORMATS.find((f) => f.parser === parser);
}
