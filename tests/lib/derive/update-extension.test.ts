import { describe, expect, it } from "vitest";
import { extensionOf } from "@/lib/derive/update-extension";

const OLD = "We are investigating elevated error rates on the API.";

describe("extensionOf", () => {
  it("finds a sentence or a paragraph added after the old text, kept whole", () => {
    expect(extensionOf(OLD, `${OLD} Webhooks are delayed too.`)).toEqual({ where: "end", added: "Webhooks are delayed too.", paragraph: false });
    expect(extensionOf(OLD, `${OLD}\n\nWe'd like to share more information about the event.`)).toEqual({
      where: "end",
      added: "We'd like to share more information about the event.",
      paragraph: true,
    });
  });

  it("finds text put before the old text: a sentence, or a paragraph even without a full stop", () => {
    expect(extensionOf(OLD, `Resolved at 11:09. ${OLD}`)).toEqual({ where: "start", added: "Resolved at 11:09.", paragraph: false });
    expect(extensionOf(OLD, `UPDATE\n${OLD}`)).toEqual({ where: "start", added: "UPDATE", paragraph: true });
  });

  it("tells whitespace at the joint from text: trailing blanks of the old text do not hide an extension", () => {
    expect(extensionOf(`${OLD}\n`, `${OLD}\nFixed.`)?.added).toBe("Fixed.");
  });

  it("gives text to an update that had none", () => {
    expect(extensionOf("", "Now with words.")).toEqual({ where: "end", added: "Now with words.", paragraph: true });
  });

  it("calls no extension words inserted inside the old text, a widened list, or text taken away or changed", () => {
    // DigitalOcean adding "Managed Kubernetes," to the services an update had named.
    expect(extensionOf("Droplets, Volumes and Spaces are affected.", "Droplets, Managed Kubernetes, Volumes and Spaces are affected.")).toBeNull();
    expect(extensionOf("Affected services: S3", "Affected services: S3, EC2")).toBeNull();
    expect(extensionOf("Affected:\n- S3", "Affected:\n- S3\n- EC2")).toBeNull();
    expect(extensionOf(OLD, OLD.replace("elevated", "high"))).toBeNull();
    expect(extensionOf(`${OLD} Webhooks are delayed too.`, OLD)).toBeNull();
    expect(extensionOf(OLD, `${OLD.slice(0, -1)} and webhooks.`)).toBeNull();
  });

  it("needs the joint on a word boundary: a word run on is a change", () => {
    expect(extensionOf("It is fixed.", "It is fixed.x")).toBeNull();
    expect(extensionOf("fixed.", "Un-fixed.")).toBeNull();
    expect(extensionOf("Done.", "Not done. Done.")).toEqual({ where: "start", added: "Not done.", paragraph: false });
  });

  it("finds nothing when nothing changed but blanks", () => {
    expect(extensionOf(OLD, ` ${OLD}\n`)).toBeNull();
  });
});
