import { SaxesParser } from "saxes";

/** Every well-formedness error a strict XML parser finds. */
export function xmlErrors(xml: string): string[] {
  const errors: string[] = [];
  const parser = new SaxesParser({ xmlns: true });
  parser.on("error", (e) => errors.push(e.message));
  parser.write(xml).close();
  return errors;
}
