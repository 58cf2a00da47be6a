import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The portal imports Mantine's styles component by component
 * (src/mantine-styles.ts, decision 048). A component without its styles still
 * renders, unstyled, and nothing else would say so: this test follows every
 * name imported from '@mantine/core' (by the portal and by
 * @mantine/notifications) through Mantine's own modules to the CSS modules they
 * use, and checks each has its file imported, in styles.css's order.
 */
const root = path.resolve(import.meta.dirname, '..', '..');
const mantineCore = path.join(root, 'node_modules', '@mantine', 'core');
const globals = ['baseline', 'default-css-variables', 'global'];

function namesImportedFromCore(dir: string, names = new Set<string>()): Set<string> {
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) namesImportedFromCore(file, names);
    else if (/\.(tsx?|mjs)$/.test(entry))
      for (const [, list] of readFileSync(file, 'utf8').matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']@mantine\/core["']/g))
        for (const name of list!.split(','))
          if (name.trim()) names.add(name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim());
  }
  return names;
}

/** The styles each component needs: the `*.module.mjs` files reachable from its module (Mantine names both alike). */
function stylesNeeded(): Set<string> {
  const exported = new Map<string, string>();
  for (const [, list, from] of readFileSync(path.join(mantineCore, 'esm', 'index.mjs'), 'utf8').matchAll(/import \{([^}]*)\} from "(\.[^"]+)"/g))
    for (const name of list!.split(',')) exported.set(name.split(/\s+as\s+/).pop()!.trim(), path.join(mantineCore, 'esm', from!));
  const used = namesImportedFromCore(path.join(root, 'portal', 'src'));
  namesImportedFromCore(path.join(root, 'node_modules', '@mantine', 'notifications', 'esm'), used);
  const needed = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (file.endsWith('.module.mjs')) needed.add(path.basename(file, '.module.mjs'));
    for (const [, from] of readFileSync(file, 'utf8').matchAll(/from "(\.[^"]+)"/g)) visit(path.resolve(path.dirname(file), from!));
  };
  for (const name of used) if (exported.has(name)) visit(exported.get(name)!);
  return needed;
}

const imported = [...readFileSync(path.join(root, 'portal', 'src', 'mantine-styles.ts'), 'utf8').matchAll(/^import '@mantine\/core\/styles\/(.+)\.css';$/gm)].map(
  ([, name]) => name!,
);

describe("the portal's Mantine styles", () => {
  it('import the styles of every component the portal uses', () => {
    const missing = [...stylesNeeded()].filter((name) => !imported.includes(name));
    expect(missing, 'add these to portal/src/mantine-styles.ts').toEqual([]);
    expect(imported.slice(0, 3)).toEqual(globals);
  });

  it("keep styles.css's order, so a component's rules come after those it is built on", () => {
    const all = readFileSync(path.join(mantineCore, 'styles.css'), 'utf8');
    const at = (name: string) => all.indexOf(readFileSync(path.join(mantineCore, 'styles', `${name}.css`), 'utf8').slice(0, 400));
    expect(imported.map(at).every((position) => position >= 0)).toBe(true);
    expect(imported).toEqual([...imported].sort((a, b) => at(a) - at(b)));
  });
});
