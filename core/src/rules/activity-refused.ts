import { texts } from '../texts.ts';
import { activityActorText, type ActivityFacts } from './activity.ts';

/**
 * A desk's change the server refused when the desk pushed it (decision 039):
 * table sync_mutation, status 'rejected'. It changed nothing, so audit_log
 * has no row for it, but an owner wants to see that Recepción tried to gift
 * a package over its limit from a desk that was offline. Actividad shows
 * these as their own kind, beside audit_log's kinds (rules/activity.ts).
 */
export const refusedActivityKind = 'refusedBySync';
export const refusedActivityKindName = 'Rechazado por el servidor';

/** One refused desk mutation, with the names the server joined to it. */
export interface RefusedChangeFacts {
  /** The desk mutation's name (core's deskMutationArgs). */
  name: string;
  args: unknown;
  actor: ActivityFacts['actor'];
  customerName: string | null;
  /** The package a giveAccess named. */
  packageTitle: string | null;
  /** The desk's client id (a UUID): its first 8 characters tell two desks apart. */
  desk: string;
  /** The server's Spanish message (DomainError), as the desk showed it. */
  message: string | null;
}

const mutationNames: Record<string, string> = texts.desk.mutationNames;

function arg(args: unknown, key: string): unknown {
  return args && typeof args === 'object' ? (args as Record<string, unknown>)[key] : undefined;
}

/** What the desk tried, as an owner reads it ('regalar 10 Clases a Mariana López — motivo: cumpleaños'). */
export function refusedChangeWhat(facts: RefusedChangeFacts): string {
  const who = facts.customerName ?? 'un cliente';
  const reason = arg(facts.args, 'reason');
  const because = typeof reason === 'string' && reason.trim() ? ` — motivo: ${reason.trim()}` : '';
  const title = facts.packageTitle ?? 'un paquete';
  switch (facts.name) {
    case 'giveAccess':
      return `${arg(facts.args, 'is_gift') === true ? 'regalar' : 'dar acceso a'} ${title} a ${who}${because}`;
    case 'removeClasses': {
      const amount = Number(arg(facts.args, 'amount'));
      return `restar ${amount === 1 ? '1 clase' : `${amount} clases`} a ${who}${because}`;
    }
    case 'revokeAccess':
      return `eliminar un acceso de ${who}${because}`;
    default: {
      const action = mutationNames[facts.name] ?? 'un cambio';
      return `«${action}» para ${who}${because}`;
    }
  }
}

/** The whole sentence: who, from which desk, what was attempted, and the server's reason. */
export function refusedChangeSentence(facts: RefusedChangeFacts): string {
  const why = facts.message?.trim() ? facts.message.trim() : 'no cumplía las reglas del estudio.';
  return `${activityActorText(facts.actor)} intentó, desde la recepción ${facts.desk.slice(0, 8)}, ${refusedChangeWhat(facts)}. El servidor lo rechazó: ${why}`;
}
