import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The repository stands on its own: a copy of the committed tree, in an empty temporary folder with
 * nothing beside it, passes the tests that read published vectors and the interface's endpoint list; and
 * no tracked file names a file outside the repository or an absolute path of the machines it was built on.
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(repoRoot, f)));
}

/** A tracked file's text, or undefined for a binary one (icons). */
function textOf(file: string): string | undefined {
  const bytes = readFileSync(join(repoRoot, file));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

type VitestJson = {
  success: boolean;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; status: string }[];
};

/** Runs vitest in `cwd` on `files` (main project), as a separate process; its JSON report. */
function runVitest(cwd: string, files: string[], report: string): Promise<{ code: number; output: string }> {
  // Nothing of this run's environment may point the copy back here (a vectors folder, a database).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VITEST') && !k.startsWith('TILLPOINT_') && k !== 'NODE_OPTIONS',
    ),
  );
  const args = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'main', '--reporter=json'];
  const child = spawn(process.execPath, [...args, `--outputFile=${report}`, ...files], { cwd, env });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('a copy of the committed tree with nothing beside it', () => {
  let dir: string;
  let copy: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tillpoint-clone-'));
    copy = join(dir, 'tillpoint');
    mkdirSync(copy);
    // HEAD's tree exactly: what a clone checks out (uncommitted work is not in it).
    const tar = join(dir, 'head.tar');
    execFileSync('git', ['archive', '--format=tar', '-o', tar, 'HEAD'], { cwd: repoRoot });
    execFileSync('tar', ['-xf', tar, '-C', copy]);
    rmSync(tar);
    // The installed packages, linked entry by entry (no network); the copy's own caches stay in the copy.
    mkdirSync(join(copy, 'node_modules'));
    for (const entry of readdirSync(join(repoRoot, 'node_modules'))) {
      if (entry === '.vite' || entry === '.vitest') continue;
      symlinkSync(join(repoRoot, 'node_modules', entry), join(copy, 'node_modules', entry));
    }
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes every test that reads test/vectors, the interface coverage among them', async () => {
    // The test files that load vectors or the endpoint list, found in the copy, so a new one is run too.
    // Not the field tech's CLI tests (test/native/tool): they start a process per case, a minute of CPU on
    // a two-core runner; the codecs they call are the ones the protocol tests check against the vectors.
    const uses = /from '(?:\.\.\/)+support\/(?:emv-)?vectors'/;
    const files = execFileSync('git', ['ls-files', 'test'], { cwd: repoRoot, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.test\.tsx?$/.test(f) && !f.startsWith('test/native/tool/'))
      .filter((f) => existsSync(join(copy, f)) && uses.test(readFileSync(join(copy, f), 'utf8')));
    expect(files).toContain('test/gateway/interface-coverage.test.ts');
    expect(files).toContain('test/native/protocols/dukpt-tdes.test.ts');
    expect(files).toContain('test/native/protocols/emv-cryptograms.test.ts');

    const report = join(dir, 'report.json');
    const { code, output } = await runVitest(copy, files, report);
    expect(code, output.slice(-4000)).toBe(0);
    const result = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
    expect(result.success).toBe(true);
    expect(result.numFailedTests).toBe(0);
    expect(result.numPassedTests).toBeGreaterThan(400);
    expect(
      result.testResults.map((r) => [relative(copy, r.name), r.status]).sort(),
      'every selected file ran in the copy and passed',
    ).toEqual(files.map((f) => [f, 'passed']).sort());
  }, 240_000);
});

describe('no tracked file reaches outside the repository', () => {
  // Built from parts, so that this file does not match itself.
  const forbidden = [
    { what: 'the team folder beside the repository', text: ['..', 'shared'].join('/') },
    { what: "an absolute path of the build machines' work area", text: ['', 'work', ''].join('/') },
    { what: 'the design record kept outside the repository', text: ['DESIGN', 'md'].join('.') },
  ];
  const sep = '/';
  const homePath = new RegExp(
    String.raw`(?<![\w.-])${sep}(?:home|Users)${sep}[\w.-]+|(?<![\w.-])${sep}root${sep}`,
  );

  it('names no file outside it and no absolute home path', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(500);
    const found: string[] = [];
    for (const file of files) {
      const text = textOf(file);
      if (text === undefined) continue;
      for (const { what, text: needle } of forbidden)
        if (text.includes(needle)) found.push(`${file}: ${what}`);
      const home = homePath.exec(text);
      if (home) found.push(`${file}: an absolute home path (${home[0]})`);
    }
    expect(found).toEqual([]);
  });

  it('cites only documents and sections that exist in docs/', () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-');
    const docs = new Map<string, { anchors: Set<string>; numbers: Set<string> }>();
    for (const f of readdirSync(join(repoRoot, 'docs')).filter((n) => n.endsWith('.md'))) {
      const headings = readFileSync(join(repoRoot, 'docs', f), 'utf8')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => l.replace(/^#+ /, ''));
      docs.set(f.replace(/\.md$/, ''), {
        anchors: new Set(headings.map(slug)),
        numbers: new Set(
          headings.map((h) => /^(\d+(?:\.\d+)?)\.? /.exec(h)?.[1]).filter((n) => n !== undefined),
        ),
      });
    }
    const cited: string[] = [];
    const broken: string[] = [];
    for (const file of trackedFiles()) {
      const text = textOf(file);
      if (text === undefined) continue;
      const inDocs = file.startsWith('docs/');
      const refs = [
        ...text.matchAll(/docs\/([a-z0-9-]+)\.md#([a-z0-9-]+)/g),
        ...(inDocs ? text.matchAll(/\]\(([a-z0-9-]+)\.md#([a-z0-9-]+)\)/g) : []),
      ];
      for (const [ref, doc = '', anchor = ''] of refs) {
        cited.push(ref);
        if (!docs.get(doc)?.anchors.has(anchor)) broken.push(`${file}: ${ref}`);
      }
      for (const [ref, doc = '', number = ''] of text.matchAll(
        /docs\/(devices|idtech-emv)\.md §(\d+(?:\.\d+)?)/g,
      )) {
        cited.push(ref);
        if (!docs.get(doc)?.numbers.has(number)) broken.push(`${file}: ${ref}`);
      }
    }
    expect(cited.length).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});
