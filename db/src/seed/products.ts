import type { Tx } from '../create-db.ts';
import * as s from '../schema/index.ts';

/** What the demo studio sells at the counter: water and socks counted on the shelf, a towel rental it does not count. */
export async function seedProducts(tx: Tx) {
  await tx.insert(s.product).values([
    { name: 'Agua natural 600 ml', price: '25.00', stock: 24 },
    { name: 'Calcetas antiderrapantes', price: '180.00', stock: 10 },
    { name: 'Renta de toalla', price: '30.00', stock: null },
  ]);
}
