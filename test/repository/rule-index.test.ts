import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's rule index names, for each rule, the one file that holds it; that file carries
 * `// rule: <id>` at the rule. This keeps the index true as files move: a row whose file is gone, or whose
 * file lost its marker, fails here.
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

type Row = { id: string; file: string };

/** The rows of the table under "## Rule index": `| \`id\` | side | \`file\` | what |`. */
function ruleIndex(): Row[] {
  const doc = readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8');
  const section = /^## Rule index\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(doc)?.[1] ?? '';
  return section
    .split('\n')
    .map((line) => /^\|\s*`([a-z0-9-]+)`\s*\|[^|]*\|\s*`([^`]+)`\s*\|/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ id: m[1] ?? '', file: m[2] ?? '' }));
}

const rows = ruleIndex();

describe('the rule index of docs/architecture.md', () => {
  it('has rules, each named once, terminal and gateway both', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.map((r) => r.file)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^electron\//), expect.stringMatching(/^gateway\//)]),
    );
  });

  it.each(rows.map((r) => [r.id, r] as const))('%s: its file exists and carries the marker', (_id, row) => {
    const path = join(repoRoot, row.file);
    expect(existsSync(path), `${row.file} does not exist`).toBe(true);
    const markers = readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.trim() === `// rule: ${row.id}`);
    expect(markers, `${row.file} should carry "// rule: ${row.id}" once`).toHaveLength(1);
  });

  it('indexes every marker in the source (none is left without its row)', () => {
    const listed = new Set(rows.map((r) => `${r.file} ${r.id}`));
    const sources = execFileSync('git', ['ls-files', 'gateway', 'electron', 'native', 'renderer', 'common'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f) && existsSync(join(repoRoot, f)));
    expect(sources.length).toBeGreaterThan(300);
    const unlisted: string[] = [];
    for (const file of sources) {
      for (const line of readFileSync(join(repoRoot, file), 'utf8').split('\n')) {
        const id = /^\s*\/\/ rule: ([a-z0-9-]+)\s*$/.exec(line)?.[1];
        if (id !== undefined && !listed.has(`${file} ${id}`)) unlisted.push(`${file}: ${id}`);
      }
    }
    expect(unlisted).toEqual([]);
  });
});
