import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { COLOUR_TOKENS, DEFAULT_TOKENS, TOKEN_PAIRS, themeTokens, type BrandConfig } from './brand';
import { checkBrandFolder, openBrandRegistry } from './brand-folder';
import { runBrandCli } from './brand-cli';

const shipped = resolve(__dirname, '../../../brands');
const shippedIds = readdirSync(shipped, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** WCAG 2's contrast, written out again here so the test does not trust the code it checks. */
function ratio(a: string, b: string): number {
  const lum = (hex: string) => {
    const n = hex.length === 4 ? hex.slice(1).split('').map((c) => c + c).join('') : hex.slice(1);
    const lin = [0, 2, 4].map((i) => {
      const c = parseInt(n.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
  };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** A copy of the default brand to break. */
function brandCopy(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'brand-')), 'acme');
  cpSync(join(shipped, 'default'), dir, { recursive: true });
  return dir;
}

function editJson(dir: string, edit: (b: Record<string, unknown>) => void) {
  const file = join(dir, 'brand.json');
  const b = JSON.parse(readFileSync(file, 'utf8'));
  edit(b);
  writeFileSync(file, JSON.stringify(b));
}

function cli(dir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runBrandCli(['check', dir], (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('brand check', () => {
  it('passes every shipped brand', () => {
    expect(shippedIds).toEqual(expect.arrayContaining(['default', 'aurora', 'ember']));
    for (const id of shippedIds) expect(cli(join(shipped, id))).toMatchObject({ code: 0 });
  });

  it('refuses text at 3:1 contrast, naming the pair and the ratio, with exit code 2', () => {
    const dir = brandCopy();
    // #949494 on white: (1.05)/(0.2962+0.05) ≈ 3.03:1, readable as a graphic but not as text.
    editJson(dir, (b) => ((b.theme as BrandConfig['theme']).light = { 'text-muted': '#949494' }));
    expect(ratio('#949494', '#ffffff')).toBeGreaterThan(3);
    expect(ratio('#949494', '#ffffff')).toBeLessThan(3.1);
    const r = cli(dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('light theme: text-muted #949494 on surface #ffffff has contrast 3.03:1, below 4.5:1 (WCAG AA)');
  });

  it('refuses a primary colour its button text cannot be read on', () => {
    const dir = brandCopy();
    editJson(dir, (b) => ((b.theme as BrandConfig['theme']).dark = { primary: '#333333' }));
    const r = cli(dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/dark theme: primary-text #0d1020 on primary #333333 has contrast/);
  });

  it('refuses an SVG with a script, an event attribute or an outside reference', () => {
    const dir = brandCopy();
    writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    writeFileSync(join(dir, 'logo-dark.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><image href="https://evil.example/a.png"/></svg>');
    const r = cli(dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('logo.svg: has a <script> element');
    expect(r.err).toContain('logo-dark.svg: has an event attribute (onload)');
    expect(r.err).toContain('logo-dark.svg: refers to something outside the file (https://evil.example/a.png)');
  });

  it('refuses a missing required field and a missing file', () => {
    const dir = brandCopy();
    editJson(dir, (b) => delete b.supportEmail);
    rmSync(join(dir, 'terms.ru.md'));
    const r = cli(dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain('brand.json: supportEmail:');
    expect(r.err).toContain('terms.ru.md: missing');
  });

  it('refuses a file above its size limit', () => {
    const dir = brandCopy();
    writeFileSync(join(dir, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(3000)}</desc></svg>`);
    const r = cli(dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/favicon\.svg: \d+ bytes, above the limit of 2048/);
  });

  it('exits 2 with its usage when not told what to check', () => {
    expect(runBrandCli([], () => {}, () => {})).toBe(2);
  });
});

describe('token contrast', () => {
  it.each(shippedIds.flatMap((id) => (['light', 'dark'] as const).map((theme) => [id, theme] as const)))('every token pair of %s in %s meets WCAG AA', (id, theme) => {
    const result = checkBrandFolder(join(shipped, id), id);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const t = themeTokens(result.brand, theme);
    for (const [fg, bg, min] of TOKEN_PAIRS) expect({ pair: `${fg} on ${bg}`, ok: ratio(t[fg], t[bg]) >= min }).toEqual({ pair: `${fg} on ${bg}`, ok: true });
  });

  it('the design system declares the same default tokens as the brand schema', () => {
    const css = readFileSync(resolve(__dirname, '../../ui/src/styles.css'), 'utf8');
    for (const theme of ['light', 'dark'] as const) {
      const block = new RegExp(`\\[data-theme='${theme}'\\] \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
      for (const token of COLOUR_TOKENS) expect(`${theme} --${token}: ${new RegExp(`--${token}:\\s*([^;]+);`).exec(block)?.[1]}`).toBe(`${theme} --${token}: ${DEFAULT_TOKENS[theme][token]}`);
    }
  });
});

describe('the live registry', () => {
  it('serves a new brand and an edit on the next read, and keeps the last good version of a broken one', () => {
    const root = mkdtempSync(join(tmpdir(), 'brands-'));
    cpSync(join(shipped, 'default'), join(root, 'default'), { recursive: true });
    const lines: string[] = [];
    const registry = openBrandRegistry(root, (l) => lines.push(l));
    try {
      expect(registry.brands.map((b) => b.id)).toEqual(['default']);
      cpSync(join(shipped, 'aurora'), join(root, 'aurora'), { recursive: true });
      registry.reload();
      expect(registry.brands.map((b) => b.id)).toEqual(['aurora', 'default']);
      editJson(join(root, 'aurora'), (b) => ((b.theme as BrandConfig['theme']).light = { primary: '#0b5e44' }));
      registry.reload();
      expect(registry.brands.find((b) => b.id === 'aurora')?.theme.light.primary).toBe('#0b5e44');
      editJson(join(root, 'aurora'), (b) => delete b.title);
      registry.reload();
      expect(registry.brands.find((b) => b.id === 'aurora')?.title).toBe('Aurora Capital');
      expect(lines.at(-1)).toMatch(/^\[brands\] aurora: refused, the last good version keeps serving: brand\.json: title:/);
    } finally {
      registry.close();
    }
  });
});
