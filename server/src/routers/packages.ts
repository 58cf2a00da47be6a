import { attendeesOutput, classPackageIdInput, classPackageOneOutput, classPackagesOutput, DomainError, z } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { class_package } from '@estudio/db/schema/packages';
import { getSellablePackage, loadPackages } from '../services/packages/package-output.ts';
import { listAttendees, listPackages, type PackageListName } from '../services/packages/list-packages.ts';
import { publicProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['packages'];
const empty = z.object({}).optional();

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

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/class_packages/{id}', tags, protect: false, summary: 'Un paquete a la venta', errorResponses: { 404: 'No existe o no está disponible' } } })
    .input(classPackageIdInput)
    .output(classPackageOneOutput)
    .query(async ({ ctx, input }) => ({ class_package: await getSellablePackage(ctx.db, input.id) })),
});
