/** The demo sign-ins; every seeded identity shares this password. */
export const demoPassword = 'Demo1234!';

export const demoAccounts = {
  /** Complete profile, 5 credits, one upcoming and one attended reservation. */
  cliente: { email: 'cliente@estudio.demo', password: demoPassword, role: 'customer', name: 'Mariana', last_name: 'López' },
  /** No credits, no phone or birthdate, terms not accepted. */
  nuevo: { email: 'nuevo@estudio.demo', password: demoPassword, role: 'customer', name: 'Diego', last_name: 'Hernández' },
  /** Unlimited monthly membership, active subscription. */
  ilimitado: { email: 'ilimitado@estudio.demo', password: demoPassword, role: 'customer', name: 'Sofía', last_name: 'Ramírez' },
  recepcion: { email: 'recepcion@estudio.demo', password: demoPassword, role: 'staff', name: 'Andrea', last_name: 'Torres' },
  admin: { email: 'admin@estudio.demo', password: demoPassword, role: 'admin', name: 'Carlos', last_name: 'Méndez' },
} as const;

export type DemoAccountKey = keyof typeof demoAccounts;
