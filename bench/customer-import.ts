// Bringing a studio's customers over (decisions 125 and 127), measured: a customers file of BENCH_CUSTOMERS lines
// (5,000) as Excel in Spanish writes it, with 2 % bad lines and 2 % repeats; then a credits file of as many balances
// (one in ten an unlimited membership, 2 % bad), and a bookings file of BENCH_BOOKINGS (2,000) future bookings in
// 50 classes of the next two weeks. Each file through the dry run, the real run and the real run again (which makes
// nothing), on a fresh seeded database: time, and the heap each grew.
//
//   npx tsx bench/customer-import.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres; empty: PGlite).
import { eq } from 'drizzle-orm';
import { localDate, studioInstant, studioTimeZone } from '@estudio/core';
import { createTestDb } from '@estudio/db/testing';
import { class_type, location } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { single_class } from '@estudio/db/schema/schedule';
import { planBookingImport, runBookingImport } from '../server/src/services/import/booking-import.ts';
import { planCreditImport, runCreditImport } from '../server/src/services/import/credit-import.ts';
import { planCustomerImport, runCustomerImport } from '../server/src/services/import/customer-import.ts';
import { loadStudioSettings } from '../server/src/services/schedule/studio-settings.ts';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const lines = Number(process.env.BENCH_CUSTOMERS ?? 5000);
const bookings = Number(process.env.BENCH_BOOKINGS ?? 2000);

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

  const tz = studioTimeZone(await loadStudioSettings(testDb.db));
  const dmy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
  const nextYear = new Date().getUTCFullYear() + 1;
  const [type] = await testDb.db.select().from(class_type).limit(1);
  const [place] = await testDb.db.select().from(location).limit(1);
  if (!type || !place) throw new Error('the demo studio has class types and locations');
  const credits = ['Correo;Clases restantes;Vence;Tipo de clase'];
  for (let i = 0; i < lines; i++) {
    const bad = i % 50 === 7;
    const unlimited = i % 10 === 3;
    credits.push([`importada.${i}@correo.mx`, bad ? 'muchas' : unlimited ? 'Ilimitado' : String((i % 12) + 1), `${(i % 28) + 1}/${(i % 12) + 1}/${nextYear}`, unlimited ? '' : type.name].join(';'));
  }
  const creditsCsv = `\uFEFF${credits.join('\r\n')}\r\n`;
  console.log(`\nCredits file: ${lines} lines, ${(creditsCsv.length / 1024).toFixed(0)} KiB`);
  const creditsDry = await measure('dry run', () => planCreditImport(testDb.db, creditsCsv));
  console.log(`  ${JSON.stringify(creditsDry.result.counts)}`);
  const creditsReal = await measure('real run', () => runCreditImport(testDb.db, { customer_id: admin.id }, creditsCsv));
  console.log(`  ${JSON.stringify(creditsReal.result.counts)} (${(creditsReal.ms / creditsDry.ms).toFixed(1)}× the dry run)`);
  const creditsAgain = await measure('real run again', () => runCreditImport(testDb.db, { customer_id: admin.id }, creditsCsv));
  console.log(`  ${JSON.stringify(creditsAgain.result.counts)} (${(creditsAgain.ms / creditsDry.ms).toFixed(1)}× the dry run)`);

  // 50 classes of 50 places over the next two weeks, at minutes no demo class starts at.
  const classes = Array.from({ length: 50 }, (_, k) => {
    const day = localDate(new Date(Date.now() + (1 + (k % 14)) * 86_400_000), tz);
    const time = `${String(6 + Math.floor(k / 14)).padStart(2, '0')}:${String(7 + (k % 14) * 3).padStart(2, '0')}`;
    return { day, time };
  });
  await testDb.db.insert(single_class).values(classes.map((c) => ({ class_date: studioInstant(c.day, c.time, tz), capacity: 50, location_id: place.location_id, class_type_id: type.class_type_id })));
  const booked = ['Correo,Fecha,Hora,Clase'];
  for (let i = 0; i < bookings; i++) {
    const c = classes[i % classes.length]!;
    booked.push([`importada.${(i * 2) % lines}@correo.mx`, dmy(c.day), c.time, type.name].join(','));
  }
  const bookingsCsv = `${booked.join('\n')}\n`;
  console.log(`\nBookings file: ${bookings} lines, ${(bookingsCsv.length / 1024).toFixed(0)} KiB`);
  const bookingsDry = await measure('dry run', () => planBookingImport(testDb.db, bookingsCsv));
  console.log(`  ${JSON.stringify(bookingsDry.result.counts)}`);
  const bookingsReal = await measure('real run', () => runBookingImport(testDb.db, { customer_id: admin.id }, bookingsCsv));
  console.log(`  ${JSON.stringify(bookingsReal.result.counts)} (${(bookingsReal.ms / bookingsDry.ms).toFixed(1)}× the dry run)`);
  const bookingsAgain = await measure('real run again', () => runBookingImport(testDb.db, { customer_id: admin.id }, bookingsCsv));
  console.log(`  ${JSON.stringify(bookingsAgain.result.counts)} (${(bookingsAgain.ms / bookingsDry.ms).toFixed(1)}× the dry run)`);
} finally {
  await testDb.close();
}
