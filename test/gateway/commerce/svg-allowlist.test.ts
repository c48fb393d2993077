import { describe, expect, it } from 'vitest';
import { signatureSvg } from '../../../electron/sale/signature';
import { svgProblem } from '../../../gateway/domain/svg-allowlist';
import { strokesToSvg } from '../../../native/protocols/signature-render';

/** The allow-list must take every signature this repository draws, and nothing that runs or reaches out. */
describe('the SVG signature allow-list', () => {
  const strokes = [
    [
      { x: 10, y: 10, t: 0 },
      { x: 60, y: 40, t: 10 },
      { x: 120, y: 20, t: 20 },
    ],
    [{ x: 200, y: 50, t: 30 }],
  ];

  it("accepts the signature pad's and the terminal screen's SVG", () => {
    const pad = strokesToSvg(strokes, { source: { width: 300, height: 100 }, width: 300 });
    const screen = signatureSvg({ source: 'screen', width: 300, height: 100, strokes });
    expect(screen).toBeDefined();
    expect([svgProblem(pad), svgProblem(screen ?? '')]).toEqual([null, null]);
    expect(
      svgProblem(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><!-- pad 1 --><title>Signed &amp; dated</title><g fill="url(#g)"><use xlink:href="#p"/></g></svg>',
      ),
    ).toBeNull();
  });

  it.each([
    ['<svg><animate/onbegin=alert(1)/></svg>', /malformed/],
    ['<svg><path d="M0 0"/onclick="x"/></svg>', /malformed/],
    ['<svg><path d="M0 0" ONCLICK="x"/></svg>', /event handler/],
    ['<svg><path d="M0 0" fill="url(&quot;https://e.example/x&quot;)"/></svg>', /url\(\)/],
    ['<svg><use href=" #ok"/><use href="data:image/svg+xml,x"/></svg>', /external reference/],
    ['<svg><path d="&#60;"/></svg>', /entity/],
    ['<svg><desc>a</desc>b</svg>', /text/],
    ['<svg><g></svg>', /mismatched/],
    ['<svg><path d="M0 0" d="M1 1"/></svg>', /repeated/],
    ['<svg><?php echo 1 ?></svg>', /processing instruction/],
  ])('refuses %s', (svg, problem) => {
    expect(svgProblem(svg)).toMatch(problem);
  });
});
