import { getDocument, VerbosityLevel } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * The text of a PDF, page by page and line by line as a reader would copy it (pdf.js, Mozilla's PDF reader):
 * what a test of a rendered document asserts on, so it checks what a person sees, not the drawing operators.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : "")).join(""));
  }
  await document.destroy();
  return pages.join("\n");
}
