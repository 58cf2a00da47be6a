import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { createDb, migrate, type DbHandle } from '@estudio/db';
import { DomainError, texts, toCsv } from '@estudio/core';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { backupEmbeddedStopped, backupPostgres, restoreEmbedded, restorePostgres, sizeOf } from './operations/backups.ts';
import { DataDirBusyError, lockDataDir } from './operations/data-dir-lock.ts';
import { createOwner } from './services/setup/create-owner.ts';
import { planCustomerImport, runCustomerImport } from './services/import/customer-import.ts';
import { planBookingImport, runBookingImport } from './services/import/booking-import.ts';
import { planCreditImport, runCreditImport } from './services/import/credit-import.ts';
import type { RecordImportLine } from './services/import/import-lines.ts';

/**
 * The operator's commands, run with the server's environment (production:
 * `node --env-file=/etc/estudio/estudio.env server/dist/cli.mjs <command>`;
 * here: `npm run estudio -- <command>`). Each prints what it did in Spanish
 * and exits non-zero when it did nothing.
 */
const usage = `Uso: estudio <comando> [opciones]

  owner --email CORREO --name NOMBRE --last-name APELLIDO [--studio "NOMBRE DEL ESTUDIO"] [--hours 24]
      Crea la cuenta de la dueña (administradora) e imprime un enlace de un solo uso para fijar su contraseña.
      Si el correo ya tiene cuenta, la convierte en administradora.

  backup [--dir CARPETA]
      Respalda el estudio en CARPETA (o BACKUP_DIR) y deja los BACKUP_KEEP más recientes.
      PostgreSQL: pg_dump de la base y un .tar.gz de los archivos subidos. Estudio integrado (PGlite):
      una copia de su carpeta de datos, con el servidor detenido (el servidor hace la suya cada día con BACKUP_DIR).

  import-customers ARCHIVO.csv --as CORREO_ADMIN [--dry-run]
      Trae los clientes de otro sistema (CSV de Mindbody, Glofox o una hoja de cálculo): reconoce las columnas,
      dice qué líneas crea, cuáles ya son clientes (por correo y luego teléfono) y por qué rechaza las demás, y
      escribe ARCHIVO.resultado.csv con lo que hizo cada línea. Con --dry-run no guarda nada. Se puede correr
      otra vez con el mismo archivo: nadie se crea dos veces. No envía correos.

  import-credits ARCHIVO.csv --as CORREO_ADMIN [--dry-run]
      Trae las clases que les quedan a los clientes ya importados y sus membresías ilimitadas (con su fecha de fin),
      por tipo de clase o paquete. Se puede correr otra vez: nada se da dos veces.

  import-bookings ARCHIVO.csv --as CORREO_ADMIN [--dry-run]
      Trae las reservaciones futuras: cada línea se busca en el horario por fecha, hora, tipo de clase y sucursal.
      La clase ya se pagó en el sistema anterior: si la cancela a tiempo, recupera esa clase. Primero los clientes,
      luego los créditos y al final las reservaciones.

  restore RESPALDO
      PostgreSQL: carga el .dump en DATABASE_URL, que debe ser una base nueva y vacía, y sus archivos en FILES_DIR.
      Estudio integrado: pone la carpeta del respaldo en DATA_DIR (la anterior queda al lado, renombrada).`;

/** Holds an embedded studio's folder while `work` runs (refused while its server runs); PostgreSQL needs nothing. */
function withEmbeddedFolder<T>(config: Config, work: () => T): T {
  const release = config.DATABASE_URL ? () => {} : lockDataDir(config.DATA_DIR);
  const done = () => release();
  try {
    const result = work();
    if (result instanceof Promise) return result.finally(done) as T;
    done();
    return result;
  } catch (error) {
    done();
    throw error;
  }
}

async function withDatabase<T>(config: Config, work: (handle: DbHandle) => Promise<T>): Promise<T> {
  return withEmbeddedFolder(config, async () => {
    const handle = await createDb(config.DATABASE_URL, { dataDir: config.DATA_DIR, max: 2 });
    try {
      // The same migrations the server applies, under the same lock: the command may run before the first start.
      await migrate(handle, { folder: config.MIGRATIONS_DIR });
      return await work(handle);
    } finally {
      await handle.close();
    }
  });
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function backup(config: Config, args: string[]): number {
  const { values } = parseArgs({ args, options: { dir: { type: 'string' } } });
  const dir = values.dir ? path.resolve(values.dir) : config.BACKUP_DIR;
  if (!dir) {
    console.error('Indica la carpeta de los respaldos con --dir o BACKUP_DIR.');
    return 2;
  }
  if (config.DATABASE_URL) {
    const made = backupPostgres({ url: config.DATABASE_URL, dir, filesDir: config.FILES_DIR ?? path.join(config.DATA_DIR, 'files'), keep: config.BACKUP_KEEP });
    console.log(`Respaldo escrito: ${made.database} (${megabytes(sizeOf(made.database))})`);
    if (made.files) console.log(`Archivos subidos: ${made.files} (${megabytes(sizeOf(made.files))})`);
    return 0;
  }
  const folder = withEmbeddedFolder(config, () => backupEmbeddedStopped({ dataDir: config.DATA_DIR, dir, keep: config.BACKUP_KEEP }));
  console.log(`Respaldo del estudio integrado escrito: ${folder} (${megabytes(sizeOf(folder))})`);
  return 0;
}

async function restore(config: Config, args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [source] = positionals;
  if (!source) {
    console.error('Indica el respaldo a restaurar: restore <archivo .dump o carpeta del respaldo>.');
    return 2;
  }
  const from = path.resolve(source);
  if (config.DATABASE_URL) {
    const sql = postgres(config.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`;
      if ((row?.n ?? 0) > 0) {
        console.error('La base de DATABASE_URL ya tiene tablas. Restaura en una base nueva y vacía (createdb) y apunta DATABASE_URL a ella.');
        return 1;
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
    const filesDir = config.FILES_DIR ?? path.join(config.DATA_DIR, 'files');
    const restored = restorePostgres({ url: config.DATABASE_URL, dump: from, filesDir });
    console.log(`Base restaurada desde ${from}${restored.files ? `; archivos en ${filesDir}` : ''}. Inicia el servidor: las recepciones se sincronizarán de nuevo solas.`);
    return 0;
  }
  const previous = withEmbeddedFolder(config, () => restoreEmbedded({ backup: from, dataDir: config.DATA_DIR }));
  console.log(`Estudio integrado restaurado en ${config.DATA_DIR}${previous ? `; lo que había quedó en ${previous}` : ''}. Inicia el servidor.`);
  return 0;
}

async function owner(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      'last-name': { type: 'string' },
      studio: { type: 'string' },
      hours: { type: 'string', default: '24' },
    },
  });
  const hours = Number(values.hours);
  if (!values.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email)) {
    console.error('Falta --email con el correo de la dueña.');
    return 2;
  }
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 7) {
    console.error('--hours debe ser un número de horas entre 1 y 168.');
    return 2;
  }
  const result = await withDatabase(config, (handle) =>
    createOwner(handle.db, {
      email: values.email as string,
      name: values.name ?? '',
      lastName: values['last-name'] ?? '',
      studio: values.studio,
      linkHours: hours,
      publicUrl: config.PUBLIC_URL,
      provider: config.AUTH_PROVIDER,
    }),
  );
  if (result.kind === 'promoted') {
    console.log(`${values.email} ya tiene cuenta y ahora es administradora del estudio. Inicia sesión con su contraseña de siempre.`);
    return 0;
  }
  console.log(
    `${result.created ? 'Cuenta de administradora creada' : 'La cuenta ahora es administradora'} para ${values.email}.\n` +
      `Abre este enlace para fijar la contraseña (sirve una sola vez, hasta el ${result.expiresAt.toISOString()}):\n\n  ${result.link}\n\n` +
      'No lo compartas: quien lo abra elige la contraseña de la dueña.',
  );
  return 0;
}

const outcomeText = { new: 'Nueva', existing: 'Ya era cliente', repeated: 'Repetida en el archivo', refused: 'Rechazada' } as const;

type ImportKind = 'import-customers' | 'import-credits' | 'import-bookings';

/** Each file's lines as the results file lists them: the line's fate, then what it is about. */
async function importFile(kind: ImportKind, db: DbHandle['db'], actor: { customer_id: number } | null, csv: string) {
  const outcomes = kind === 'import-customers' ? outcomeText : texts.customerImport.recordOutcomes[kind === 'import-credits' ? 'credits' : 'bookings'];
  const toRows = <L extends { line: number; outcome: keyof typeof outcomeText; reasons: string[]; customer_id: number | null }>(lines: L[], rest: (l: L) => (string | number | null)[]) =>
    lines.map((l) => [l.line, outcomes[l.outcome], l.reasons.join(' '), l.customer_id, ...rest(l)]);
  if (kind === 'import-customers') {
    const plan = actor ? await runCustomerImport(db, actor, csv) : await planCustomerImport(db, csv);
    return {
      counts: plan.counts,
      header: ['Nombre', 'Apellidos', 'Correo', 'Teléfono'],
      rows: toRows(plan.lines, (l) => [l.customer?.name ?? null, l.customer?.last_name ?? null, l.customer?.email ?? null, l.customer?.phone ?? null]),
    };
  }
  const plan =
    kind === 'import-credits'
      ? actor
        ? await runCreditImport(db, actor, csv)
        : await planCreditImport(db, csv)
      : actor
        ? await runBookingImport(db, actor, csv)
        : await planBookingImport(db, csv);
  return {
    counts: plan.counts,
    header: ['Qué', 'Nombre', 'Apellidos', 'Correo', 'Teléfono'],
    rows: toRows<RecordImportLine>(plan.lines, (l) => [l.detail, l.name, l.last_name, l.email, l.phone]),
  };
}

const importWords = {
  'import-customers': { file: 'de clientes', made: 'creadas', toMake: 'por crear', existing: 'ya eran clientes' },
  'import-credits': { file: 'de créditos', made: 'dadas', toMake: 'por dar', existing: 'ya importadas antes' },
  'import-bookings': { file: 'de reservaciones', made: 'reservadas', toMake: 'por reservar', existing: 'ya reservadas' },
} as const;

async function importCommand(kind: ImportKind, config: Config, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { as: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
  const words = importWords[kind];
  const [file] = positionals;
  if (!file || !existsSync(file)) {
    console.error(`Indica el archivo CSV ${words.file} que existe.`);
    return 2;
  }
  if (!values.as) {
    console.error('Indica con --as el correo de la administradora que importa (queda en la actividad).');
    return 2;
  }
  const csv = readFileSync(file, 'utf8');
  const done = await withDatabase(config, async (handle) => {
    const [admin] = await handle.db
      .select({ id: customer.customer_id })
      .from(customer)
      .where(and(eq(customer.email, (values.as as string).toLowerCase()), eq(customer.role, 'admin'), isNull(customer.deletedAt)));
    if (!admin) return null;
    return importFile(kind, handle.db, values['dry-run'] ? null : { customer_id: admin.id }, csv);
  });
  if (!done) {
    console.error(`${values.as} no es administradora de este estudio.`);
    return 1;
  }
  const result = `${file}.resultado.csv`;
  writeFileSync(result, toCsv(['Línea', 'Resultado', 'Motivo', 'ID cliente', ...done.header], done.rows));
  const { counts } = done;
  console.log(
    `${values['dry-run'] ? 'Prueba (no se guardó nada)' : 'Importación terminada'}: ${counts.new} ${values['dry-run'] ? words.toMake : words.made}, ` +
      `${counts.existing} ${words.existing}, ${counts.repeated} repetidas en el archivo, ${counts.refused} rechazadas.\nDetalle por línea: ${result}`,
  );
  return 0;
}

const commands = new Set(['owner', 'backup', 'restore', 'import-customers', 'import-credits', 'import-bookings']);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // The usage needs no configuration: it is what an operator reads before writing one.
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(usage);
    return 0;
  }
  if (!commands.has(command)) {
    console.error(usage);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  try {
    switch (command) {
      case 'owner':
        return await owner(config, rest);
      case 'backup':
        return backup(config, rest);
      case 'restore':
        return await restore(config, rest);
      case 'import-customers':
      case 'import-credits':
      case 'import-bookings':
        return await importCommand(command, config, rest);
    }
    return 2;
  } catch (error) {
    if (error instanceof DomainError || error instanceof DataDirBusyError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`${error.message}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
