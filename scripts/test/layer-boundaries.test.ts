import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The lint's boundaries (eslint.config.js, decision 096): an upward import fails, the same import downward passes. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('the layers’ boundaries fail the lint', () => {
  it('a service importing the previous panel’s shapes, tRPC, a router or Fastify', async () => {
    const file = 'server/src/services/schedule/bad-example.ts';
    expect(await refusals(file, "import { panelClass } from '../../legacy/shapes.ts';\nexport const x = panelClass;\n")).toHaveLength(1);
    expect(await refusals(file, "import type { Caller } from '../../trpc.ts';\nexport type X = Caller;\n")).toHaveLength(1);
    expect(await refusals(file, "import { scheduleRouter } from '../../routers/schedule.ts';\nexport const x = scheduleRouter;\n")).toHaveLength(1);
    expect(await refusals(file, "import type { FastifyInstance } from 'fastify';\nexport type X = FastifyInstance;\n")).toHaveLength(1);
    expect(await refusals(file, "import { listSchedule } from './list-schedule.ts';\nexport const x = listSchedule;\n")).toEqual([]);
  });

  it('the HTTP layer and routers may import services and the legacy adapter', async () => {
    expect(await refusals('server/src/http/bad-example.ts', "import { panelClass } from '../legacy/shapes.ts';\nexport const x = panelClass;\n")).toEqual([]);
  });

  it('core importing Node or the database', async () => {
    expect(await refusals('core/src/rules/bad-example.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toHaveLength(1);
    expect(await refusals('core/src/rules/bad-example.ts', "import { customer } from '@estudio/db';\nexport const x = customer;\n")).toHaveLength(1);
  });

  it('the portal and the desk’s screens see the server only as types', async () => {
    expect(await refusals('portal/src/bad-example.ts', "import type { AppRouter } from '@estudio/server/router';\nexport type X = AppRouter;\n")).toEqual([]);
    expect(await refusals('portal/src/bad-example.ts', "import { buildServer } from '@estudio/server/app';\nexport const x = buildServer;\n")).toHaveLength(1);
    expect(await refusals('desktop/src/renderer/src/bad-example.ts', "import { customer } from '@estudio/db';\nexport const x = customer;\n")).toHaveLength(1);
  });
});
