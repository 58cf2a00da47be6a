import type { Tx } from '../create-db.ts';
import * as s from '../schema/index.ts';
import { at, idAt, nextWeekday, type SeedDays } from './seed-days.ts';

/** Package keys, in insert order. */
export const packageKeys = ['trial', 'one', 'five', 'ten', 'unlimited', 'online', 'event', 'signup'] as const;
export type PackageKey = (typeof packageKeys)[number];

/** The packages (a trial, class packs, memberships, a special event, the enrolment fee) and the ways to pay. */
export async function seedPackages(tx: Tx, { date }: SeedDays, classTypes: readonly { id: number }[]) {
  const eventDate = at(nextWeekday(date(8), 6), '18:30');
  const packageRows: Record<PackageKey, typeof s.class_package.$inferInsert> = {
    trial: {
      title: 'Clase de prueba',
      short_description: 'Tu primera clase gratis',
      description:
        '<p>¿Primera vez en Estudio Demo? Toma una clase de cualquier disciplina sin costo y conoce a nuestros coaches.</p><p>Válida por 15 días. Una por persona.</p>',
      price: '0.00',
      class_amount: 1,
      expiration_days: 15,
      is_trial: true,
      limit_per_customer: 1,
      show_on_home: true,
      image: '/demo/packages/prueba.jpg',
    },
    one: {
      title: '1 Clase',
      short_description: 'Una clase presencial',
      description: 'Una clase de Yoga, Pilates Reformer, Indoor Cycling o Barre en cualquiera de nuestros estudios. Vigencia de 30 días.',
      price: '180.00',
      class_amount: 1,
      expiration_days: 30,
      image: '/demo/packages/1-clase.jpg',
    },
    five: {
      title: '5 Clases',
      short_description: '$160 por clase',
      description: 'Cinco clases para combinar disciplinas y horarios a tu ritmo. Vigencia de 60 días.',
      price: '800.00',
      class_amount: 5,
      expiration_days: 60,
      show_on_home: true,
      image: '/demo/packages/5-clases.jpg',
    },
    ten: {
      title: '10 Clases',
      short_description: 'El favorito de la comunidad',
      description: 'Diez clases con el mejor precio por clase. Compártelas con tu invitado. Vigencia de 90 días.',
      price: '1500.00',
      sale_price: '1350.00',
      class_amount: 10,
      expiration_days: 90,
      show_on_home: true,
      image: '/demo/packages/10-clases.jpg',
    },
    unlimited: {
      title: 'Ilimitado Mensual',
      short_description: 'Clases presenciales ilimitadas',
      description:
        '<p>Reserva todas las clases que quieras en ambos estudios.</p><ul><li>Cargo automático cada mes</li><li>Cancela cuando quieras desde Mis Compras</li></ul>',
      price: '1990.00',
      class_amount: -1,
      expiration_days: 30,
      is_subscription: true,
      subscription_period: 'month',
      subscription_interval: 1,
      show_on_home: true,
      image: '/demo/packages/ilimitado.jpg',
    },
    online: {
      title: 'Online Mensual',
      short_description: 'Biblioteca de videos completa',
      description: 'Acceso a todas las clases en video: yoga, pilates, barre, cycling y meditación. Siete días de prueba gratis.',
      price: '349.00',
      class_amount: 0,
      expiration_days: 30,
      is_subscription: true,
      subscription_period: 'month',
      subscription_interval: 1,
      free_trial_length: 7,
      is_presencial: false,
      is_online: true,
      image: '/demo/packages/online.jpg',
    },
    event: {
      title: 'Masterclass Sunset Yoga',
      short_description: 'Evento especial con música en vivo',
      description: 'Práctica de yoga al atardecer en la terraza de Coyoacán con Vale y música en vivo. Incluye agua de coco y mat.',
      price: '450.00',
      class_amount: 1,
      expiration_days: 30,
      is_special_event: true,
      event_date: eventDate.toDate(),
      people_limit: 30,
      limit_per_customer: 2,
      show_on_home: true,
      image: '/demo/packages/sunset-yoga.jpg',
    },
    signup: {
      title: 'Inscripción',
      short_description: 'Pago único de inscripción',
      description: 'Cuota única de inscripción al estudio. Incluye evaluación postural y tu primer par de calcetas antiderrapantes.',
      price: '300.00',
      class_amount: 0,
      is_signup_fee: true,
      limit_per_customer: 1,
      image: '/demo/packages/inscripcion.jpg',
    },
  };
  const packageIdList = await tx
    .insert(s.class_package)
    .values(packageKeys.map((k, i) => ({ ...packageRows[k], order: i + 1 })))
    .returning({ id: s.class_package.class_package_id });
  const packageId = Object.fromEntries(packageKeys.map((k, i) => [k, idAt(packageIdList, i)])) as Record<
    PackageKey,
    number
  >;
  // The special event's credit is only good for Yoga.
  await tx
    .insert(s.class_package_type)
    .values([{ class_package_id: packageId.event, class_type_id: idAt(classTypes, 0), class_amount: 1, expiration_days: 30 }]);

  await tx.insert(s.payment_method).values([
    { name: 'Tarjeta', description: 'Tarjeta de crédito o débito', provider: 'card' },
    { name: 'Efectivo', description: 'Paga en recepción o por transferencia bancaria', provider: 'cash' },
    { name: 'PayPal', description: 'Paga con tu cuenta de PayPal', provider: 'paypal', available: false },
  ]);

  return { packageRows, packageId, eventDate };
}
