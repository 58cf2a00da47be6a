import { parseArgs } from 'node:util';
import { createDb, migrate, type DbHandle } from '@estudio/db';
import { DomainError } from '@estudio/core';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createOwner } from './services/setup/create-owner.ts';

/**
 * The operator's commands, run with the server's environment (production:
 * `node --env-file=/etc/estudio/estudio.env server/dist/cli.mjs <command>`;
 * here: `npm run estudio -- <command>`). Each prints what it did in Spanish
 * and exits non-zero when it did nothing.
 */
const usage = `Uso: estudio <comando> [opciones]

  owner --email CORREO --name NOMBRE --last-name APELLIDO [--studio "NOMBRE DEL ESTUDIO"] [--hours 24]
      Crea la cuenta de la dueña (administradora) e imprime un enlace de un solo uso para fijar su contraseña.
      Si el correo ya tiene cuenta, la convierte en administradora.`;

async function withDatabase<T>(config: Config, work: (handle: DbHandle) => Promise<T>): Promise<T> {
  const handle = await createDb(config.DATABASE_URL, { dataDir: config.DATA_DIR, max: 2 });
  try {
    // The same migrations the server applies, under the same lock: the command may run before the first start.
    await migrate(handle, { folder: config.MIGRATIONS_DIR });
    return await work(handle);
  } finally {
    await handle.close();
  }
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

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
      default:
        console.error(usage);
        return command && command !== 'help' && command !== '--help' ? 2 : 0;
    }
  } catch (error) {
    if (error instanceof DomainError) {
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
