/**
 * The SVG a signature may be: a strict parse of a small subset of XML, and an allow-list of the elements
 * and attributes a drawn signature needs (paths, lines, shapes, groups, an internal `use`). Everything else
 * is refused, rather than looking for what is dangerous: a deny-list of patterns let
 * `<animate/onbegin=…>` through (an event handler after a slash instead of a space), and SVG has many
 * more ways to run script or reach out (animation elements, `set`, `style`, entities, CDATA, namespaces).
 *
 * Not accepted at all: DOCTYPE, entities other than the five XML ones, CDATA, processing instructions,
 * unquoted attribute values, duplicate attributes, text outside `title`/`desc`, references other than
 * `#fragment` (href, xlink:href, url()).
 */

const ELEMENTS: ReadonlySet<string> = new Set([
  'svg',
  'g',
  'defs',
  'path',
  'polyline',
  'polygon',
  'line',
  'rect',
  'circle',
  'ellipse',
  'use',
  'title',
  'desc',
]);

const ATTRIBUTES: ReadonlySet<string> = new Set([
  'xmlns',
  'xmlns:xlink',
  'version',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'id',
  'd',
  'points',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'transform',
  'vector-effect',
  'shape-rendering',
  'href',
  'xlink:href',
]);

/** Namespace declarations may only name the two namespaces a signature uses. */
const NAMESPACES: Readonly<Record<string, string>> = {
  xmlns: 'http://www.w3.org/2000/svg',
  'xmlns:xlink': 'http://www.w3.org/1999/xlink',
};

const TEXT_ELEMENTS: ReadonlySet<string> = new Set(['title', 'desc']);
const NAME = /^[A-Za-z][A-Za-z0-9:_-]*/;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const FRAGMENT = /^#[A-Za-z_][A-Za-z0-9_.-]*$/;

/** The five predefined entities decoded; null for any other `&` (numeric references included). */
function decode(text: string): string | null {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c !== '&') {
      out += c;
      continue;
    }
    const end = text.indexOf(';', i);
    const value = end > i ? ENTITIES[text.slice(i + 1, end)] : undefined;
    if (value === undefined) return null;
    out += value;
    i = end;
  }
  return out;
}

/** Why an attribute is refused, or null. The value is already decoded. */
function attributeProblem(name: string, value: string): string | null {
  if (/^on/i.test(name)) return `an event handler attribute (${name})`;
  if (/javascript\s*:/i.test(value)) return 'a javascript: URL';
  if (name === 'href' || name === 'xlink:href') {
    return FRAGMENT.test(value.trim()) ? null : `an external reference (${name})`;
  }
  const urls = value.match(/url\s*\(([^)]*)\)?/gi) ?? [];
  for (const u of urls) {
    const inner = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/i.exec(u)?.[2] ?? '';
    if (!FRAGMENT.test(inner)) return 'an external reference (url())';
  }
  if (!ATTRIBUTES.has(name)) return `the attribute ${name}`;
  const ns = NAMESPACES[name];
  if (ns !== undefined && value !== ns) return `a namespace declaration other than ${ns}`;
  return null;
}

/** Null when `svg` is one allowed SVG document, else what makes it unacceptable ("…contains X"). */
export function svgProblem(svg: string): string | null {
  const open: string[] = [];
  let rootSeen = false;
  let i = 0;
  while (i < svg.length) {
    const lt = svg.indexOf('<', i);
    const text = svg.slice(i, lt < 0 ? svg.length : lt);
    if (text.trim() !== '') {
      if (!TEXT_ELEMENTS.has(open.at(-1) ?? '')) return 'text outside title or desc';
      if (decode(text) === null) return 'an entity or character reference';
    }
    if (lt < 0) break;
    if (rootSeen && open.length === 0) return 'content after the root element';
    if (svg.startsWith('<!--', lt)) {
      const end = svg.indexOf('-->', lt + 4);
      if (end < 0) return 'an unterminated comment';
      i = end + 3;
      continue;
    }
    if (svg.startsWith('<!', lt)) return 'a DOCTYPE, ENTITY or CDATA section';
    if (svg.startsWith('<?', lt)) return 'a processing instruction';
    if (svg.startsWith('</', lt)) {
      const m = /^<\/([A-Za-z][A-Za-z0-9:_-]*)\s*>/.exec(svg.slice(lt));
      if (!m || open.pop() !== m[1]) return 'a mismatched end tag';
      i = lt + m[0].length;
      continue;
    }
    // A start tag: <name, then whitespace-separated name="value" pairs, then > or />.
    const nameMatch = NAME.exec(svg.slice(lt + 1));
    if (!nameMatch) return 'a malformed tag';
    const element = nameMatch[0];
    let j = lt + 1 + element.length;
    const seen = new Set<string>();
    let selfClosing = false;
    for (;;) {
      const ws = /^\s*/.exec(svg.slice(j))?.[0].length ?? 0;
      j += ws;
      if (svg.startsWith('/>', j)) {
        selfClosing = true;
        j += 2;
        break;
      }
      if (svg[j] === '>') {
        j += 1;
        break;
      }
      if (ws === 0) return `a malformed tag <${element}> (attributes must be separated by spaces)`;
      const attr = /^([A-Za-z][A-Za-z0-9:_.-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/.exec(svg.slice(j));
      if (!attr) return `a malformed attribute in <${element}> (values must be quoted)`;
      const name = attr[1] ?? '';
      if (seen.has(name)) return `a repeated attribute (${name})`;
      seen.add(name);
      const value = decode(attr[2] ?? attr[3] ?? '');
      if (value === null) return 'an entity or character reference';
      const problem = attributeProblem(name, value);
      if (problem) return problem;
      j += attr[0].length;
    }
    if (!ELEMENTS.has(element)) {
      return element.toLowerCase() === 'script' ? 'a script element' : `the element <${element}>`;
    }
    if (open.length === 0) {
      if (rootSeen || element !== 'svg') return 'content outside the one <svg> root';
      rootSeen = true;
    }
    if (!selfClosing) open.push(element);
    i = j;
  }
  if (!rootSeen || open.length > 0) return 'an unclosed element';
  return null;
}
