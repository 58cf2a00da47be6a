import { eq } from 'drizzle-orm';
import { location } from '@estudio/db/schema/catalogue';
import { DomainError, type LocationOutput, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly, removeOrInUse } from '../content/removed.ts';

export interface LocationFields {
  name: string;
  description?: string | null | undefined;
  address: string;
  city?: string | null | undefined;
  phone?: string | null | undefined;
  maps_url?: string | null | undefined;
  available?: boolean | undefined;
  order?: number | undefined;
}

const columns = {
  location_id: location.location_id,
  name: location.name,
  description: location.description,
  address: location.address,
  city: location.city,
  phone: location.phone,
  maps_url: location.maps_url,
  available: location.available,
  order: location.order,
};

function found(row: LocationOutput | undefined): LocationOutput {
  if (!row) throw new DomainError('location/not-found');
  return row;
}

/** One location with every field (the /ubicacion page and the admin form). */
export async function getLocation(db: Db, id: number): Promise<LocationOutput> {
  const [row] = await db.select(columns).from(location).where(eq(location.location_id, id)).limit(1);
  return found(row);
}

export async function createLocation(db: Db, fields: LocationFields): Promise<LocationOutput> {
  const [row] = await db
    .insert(location)
    .values({ ...definedOnly(fields), name: fields.name, address: fields.address })
    .returning(columns);
  return found(row);
}

export async function updateLocation(db: Db, id: number, changes: Partial<LocationFields>): Promise<LocationOutput> {
  const [row] = await db
    .update(location)
    .set({ ...definedOnly(changes), updatedAt: new Date() })
    .where(eq(location.location_id, id))
    .returning(columns);
  return found(row);
}

/** Deletes a location with no classes; one with classes is 409 'in-use'. */
export async function removeLocation(db: Db, id: number): Promise<RemovedOutput> {
  return removeOrInUse(async () => {
    const [row] = await db.delete(location).where(eq(location.location_id, id)).returning({ id: location.location_id });
    return row?.id;
  }, new DomainError('location/not-found'));
}
