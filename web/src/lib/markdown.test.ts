import { describe, expect, it } from "vitest";
import { markdownToHtml } from "./markdown";

describe("markdownToHtml", () => {
  it("renders headings one level down, paragraphs and emphasis", () => {
    expect(markdownToHtml("# Goal\n\nCollect **treasure** and *score*.\nThen `stop`.")).toBe(
      "<h2>Goal</h2>\n<p>Collect <strong>treasure</strong> and <em>score</em>. Then <code>stop</code>.</p>",
    );
  });
  it("renders lists and tables", () => {
    expect(markdownToHtml("- one\n- two\n  more\n\n1. first")).toBe("<ul><li>one</li><li>two more</li></ul>\n<ol><li>first</li></ol>");
    expect(markdownToHtml("| a | b |\n|---|---|\n| 1 | 2 |")).toBe(
      "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
    );
  });
  it("never lets the document's HTML through", () => {
    const html = markdownToHtml('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)"> [click](javascript:alert(3))');
    expect(html).not.toMatch(/<script|<img|href|javascript/);
    expect(html).toContain("&lt;script&gt;");
    expect(markdownToHtml("**<b>x</b>**")).toBe("<p><strong>&lt;b&gt;x&lt;/b&gt;</strong></p>");
  });
});
