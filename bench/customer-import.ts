// Bringing a studio's customers over (decision 125), measured: a customers file of BENCH_CUSTOMERS lines (5,000)
// as Excel in Spanish writes it, with 2 % bad lines and 2 % repeats, through the dry run and the real run on a fresh
// seeded database: time, and the heap each grew, with the real run repeated on the same file (it creates nobody).
//
//   npx tsx bench/customer-import.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres; empty: PGlite).
import { eq } from 'drizzle-orm';
import { createTestDb } from '@estudio/db/testing';
import { customer } from '@estudio/db/schema/customer';
import { planCustomerImport, runCustomerImport } from '../server/src/services/import/customer-import.ts';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const lines = Number(process.env.BENCH_CUSTOMERS ?? 5000);

const names = ['Sofía', 'Valentina', 'Regina', 'Camila', 'Ximena', 'Mariana', 'Daniela', 'Renata', 'Diego', 'Santiago'];
const surnames = ['Hernández', 'García', 'Martínez', 'López', 'González', 'Pérez', 'Rodríguez', 'Sánchez', 'Ramírez', 'Núñez'];
const rows = ['Nombre;Apellidos;Correo electrónico;Teléfono;Fecha de nacimiento;Notas'];
for (let i = 0; i < lines; i++) {
  const bad = i % 50 === 7;
  const repeat = i % 50 === 13 && i > 0;
  const n = repeat ? i - 1 : i;
  rows.push(
    [
      names[n % names.length],
      `${surnames[n % surnames.length]} ${surnames[(n * 7) % surnames.length]}`,
      bad ? 'sin-arroba' : `importada.${n}@correo.mx`,
      `55${String(80_000_000 + n)}`,
      `${(n % 28) + 1}/${(n % 12) + 1}/19${70 + (n % 30)}`,
      n % 10 === 0 ? '"Lesión; revisar antes de clase"' : '',
    ].join(';'),
  );
}
const csv = `\uFEFF${rows.join('\r\n')}\r\n`;

const testDb = await createTestDb();
try {
  const [admin] = await testDb.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'admin@estudio.demo'));
  if (!admin) throw new Error('the demo studio has its admin');
  const measure = async <T>(label: string, work: () => Promise<T>) => {
    global.gc?.();
    const heap = process.memoryUsage().heapUsed;
    const start = process.hrtime.bigint();
    const result = await work();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    console.log(`${label}: ${ms.toFixed(0)} ms, heap +${((process.memoryUsage().heapUsed - heap) / 1024 / 1024).toFixed(1)} MiB`);
    return { result, ms };
  };
  console.log(`File: ${lines} lines, ${(csv.length / 1024).toFixed(0)} KiB`);
  const dry = await measure('dry run', () => planCustomerImport(testDb.db, csv));
  console.log(`  ${JSON.stringify(dry.result.counts)}`);
  const real = await measure('real run', () => runCustomerImport(testDb.db, { customer_id: admin.id }, csv));
  console.log(`  ${JSON.stringify(real.result.counts)} (${(real.ms / dry.ms).toFixed(1)}× the dry run)`);
  const again = await measure('real run again', () => runCustomerImport(testDb.db, { customer_id: admin.id }, csv));
  console.log(`  ${JSON.stringify(again.result.counts)} (${(again.ms / dry.ms).toFixed(1)}× the dry run)`);
} finally {
  await testDb.close();
}
