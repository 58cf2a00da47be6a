import {
  adminPackageMessageOutput,
  adminPackageOneOutput,
  adminPackagesInput,
  adminPackagesOutput,
  attendeesOutput,
  classPackageCreateInput,
  classPackageIdInput,
  classPackageOneOutput,
  classPackagesOutput,
  classPackageUpdateInput,
  DomainError,
  packageRemovedOutput,
  z,
} from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { class_package } from '@estudio/db/schema/packages';
import { getSellablePackage, loadPackages } from '../services/packages/package-output.ts';
import { listAttendees, listPackages, type PackageListName } from '../services/packages/list-packages.ts';
import { packageCatalogue } from '../providers/payments/stripe-catalogue.ts';
import { createPackage, getAdminPackage, listAdminPackages, removePackage, setPackageOnHome, updatePackage } from '../services/packages/admin-packages.ts';
import { adminProcedure, publicProcedure, router, staffProcedure, type Context } from '../trpc.ts';

const tags = ['packages'];
const empty = z.object({}).optional();

/** The admin writing and, when Stripe is configured, the catalogue the package is kept in step with. */
const adminDeps = (ctx: Context, actorId: number) => ({ db: ctx.db, actorId, catalogue: packageCatalogue(ctx.config) });

const listRoute = (name: PackageListName, path: `/${string}`, summary: string) =>
  publicProcedure
    .meta({ openapi: { method: 'GET', path, tags, protect: false, summary } })
    .input(empty)
    .output(classPackagesOutput)
    .query(async ({ ctx }) => ({ class_packages: await listPackages(ctx.db, name) }));

export const packagesRouter = router({
  list: listRoute('all', '/class_packages', 'Paquetes a la venta, en el orden configurado'),
  onlineAll: listRoute('onlineAll', '/class_packages/online/all', 'Paquetes online'),
  onlineHome: listRoute('onlineHome', '/class_packages/online/home', 'Paquetes online del home'),
  presencialesAll: listRoute('presencialesAll', '/class_packages/presenciales/all', 'Paquetes presenciales regulares (sin eventos ni paquetes de una compra), ilimitados al final'),
  presencialesHome: listRoute('presencialesHome', '/class_packages/presenciales/home', 'Paquetes presenciales regulares del home'),
  especialesAll: listRoute('especialesAll', '/class_packages/especiales/all', 'Eventos especiales'),
  especialesHome: listRoute('especialesHome', '/class_packages/especiales/home', 'Eventos especiales del home'),

  attendees: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/class_packages/especiales/{id}/asistentes', tags, summary: 'Asistentes de un evento especial (recepción y admin)', errorResponses: { 403: 'Solo recepción y admin', 404: 'No existe' } } })
    .input(classPackageIdInput)
    .output(attendeesOutput)
    .query(async ({ ctx, input }) => {
      const [pkg] = await loadPackages(ctx.db, and(eq(class_package.class_package_id, input.id)));
      if (!pkg) throw new DomainError('package/not-found');
      return { customers: await listAttendees(ctx.db, input.id) };
    }),

  // The admin console. 'admin/all' is declared before 'admin/{id}' so the REST router matches it first.
  adminAll: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/class_packages/admin/all',
        tags,
        summary: 'Todos los paquetes, también los ocultos (y los eliminados con include_deleted), por página (admin)',
      },
    })
    .input(adminPackagesInput)
    .output(adminPackagesOutput)
    .query(({ ctx, input }) => listAdminPackages(ctx.db, input)),

  adminById: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/class_packages/admin/{id}', tags, summary: 'Un paquete para editarlo, aunque esté oculto o eliminado (admin)', errorResponses: { 404: 'No existe' } } })
    .input(classPackageIdInput)
    .output(adminPackageOneOutput)
    .query(async ({ ctx, input }) => ({ class_package: await getAdminPackage(ctx.db, input.id) })),

  create: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/class_packages',
        tags,
        summary: 'Crea un paquete con sus clases por tipo de clase; con Stripe, su producto y precio (admin)',
        errorResponses: { 404: 'Un tipo de clase o archivo no existe', 502: 'Stripe no respondió; no se guardó nada' },
      },
    })
    .input(classPackageCreateInput)
    .output(adminPackageOneOutput)
    .mutation(async ({ ctx, input }) => ({ class_package: await createPackage(adminDeps(ctx, ctx.customer.customer_id), input) })),

  update: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/class_packages',
        tags,
        summary: 'Actualiza un paquete; un precio o periodo nuevo crea un precio nuevo en Stripe (admin)',
        errorResponses: { 404: 'El paquete no existe', 502: 'Stripe no respondió; no se guardó nada' },
      },
    })
    .input(classPackageUpdateInput)
    .output(adminPackageOneOutput)
    .mutation(async ({ ctx, input }) => ({ class_package: await updatePackage(adminDeps(ctx, ctx.customer.customer_id), input) })),

  remove: adminProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/class_packages/{id}',
        tags,
        summary: 'Elimina un paquete; si tiene compras solo se oculta y se marca eliminado (admin)',
        errorResponses: { 404: 'El paquete no existe' },
      },
    })
    .input(classPackageIdInput)
    .output(packageRemovedOutput)
    .mutation(({ ctx, input }) => removePackage(adminDeps(ctx, ctx.customer.customer_id), input.id)),

  addToHome: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/class_packages/{id}/home', tags, summary: 'Muestra el paquete en el home (admin)', errorResponses: { 404: 'El paquete no existe' } } })
    .input(classPackageIdInput)
    .output(adminPackageMessageOutput)
    .mutation(({ ctx, input }) => setPackageOnHome(adminDeps(ctx, ctx.customer.customer_id), input.id, true)),

  removeFromHome: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/class_packages/{id}/home', tags, summary: 'Quita el paquete del home (admin)', errorResponses: { 404: 'El paquete no existe' } } })
    .input(classPackageIdInput)
    .output(adminPackageMessageOutput)
    .mutation(({ ctx, input }) => setPackageOnHome(adminDeps(ctx, ctx.customer.customer_id), input.id, false)),

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/class_packages/{id}', tags, protect: false, summary: 'Un paquete a la venta', errorResponses: { 404: 'No existe o no está disponible' } } })
    .input(classPackageIdInput)
    .output(classPackageOneOutput)
    .query(async ({ ctx, input }) => ({ class_package: await getSellablePackage(ctx.db, input.id) })),
});
