import { MultiSelect, NumberInput, Select, SimpleGrid, Textarea } from '@mantine/core';
import { api } from '../api.ts';

/** What every class needs, shared by the new-class, edit and repeat forms. */
export interface ClassFieldValues {
  class_type_id: string | null;
  location_id: string | null;
  /** A room of the chosen location; null: no room (the class takes the whole location). */
  room_id: string | null;
  instructor_ids: string[];
  capacity: number | string;
  duration_minutes: number | string;
  description: string;
}

export const emptyClassFields = (duration = 50): ClassFieldValues => ({
  class_type_id: null,
  location_id: null,
  room_id: null,
  instructor_ids: [],
  capacity: 12,
  duration_minutes: duration,
  description: '',
});

/** What a left-empty select says (the schema would only say the id is not a number). */
export const classFieldsMissing = { class_type_id: 'Elige el tipo de clase.', location_id: 'Elige la sucursal.' };

/** The payload part of the class fields; ids as numbers (the schema says what is missing). */
export const classFieldsPayload = (v: ClassFieldValues) => ({
  class_type_id: v.class_type_id ? Number(v.class_type_id) : undefined,
  location_id: v.location_id ? Number(v.location_id) : undefined,
  room_id: v.room_id ? Number(v.room_id) : null,
  instructor_ids: v.instructor_ids.map(Number),
  capacity: v.capacity === '' ? undefined : Number(v.capacity),
  duration_minutes: v.duration_minutes === '' ? undefined : Number(v.duration_minutes),
  description: v.description.trim() ? v.description.trim() : null,
});

export function ClassFields<V extends ClassFieldValues>({
  values,
  errors,
  set,
}: {
  values: V;
  errors: Record<string, string>;
  set: <K extends keyof V>(key: K, value: V[K]) => void;
}) {
  const classTypes = api.classTypes.list.useQuery();
  const locations = api.locations.list.useQuery({});
  const instructors = api.instructors.list.useQuery();
  // Only the chosen location's rooms: a class's room is of its location (decision 140).
  const rooms = api.rooms.list.useQuery({ location_id: Number(values.location_id) }, { enabled: Boolean(values.location_id) });
  const roomOptions = values.location_id ? (rooms.data?.rooms ?? []).map((r) => ({ value: String(r.room_id), label: r.capacity === null ? r.name : `${r.name} (${r.capacity} lugares)` })) : [];
  return (
    <>
      <SimpleGrid cols={2}>
        <Select
          label="Tipo de clase"
          required
          searchable
          data={(classTypes.data?.class_types ?? []).map((c) => ({ value: String(c.class_type_id), label: c.name }))}
          value={values.class_type_id}
          onChange={(x) => set('class_type_id', x as V['class_type_id'])}
          error={errors.class_type_id}
          data-testid="class-type-select"
        />
        <Select
          label="Sucursal"
          required
          data={(locations.data?.locations ?? []).map((l) => ({ value: String(l.location_id), label: l.name }))}
          value={values.location_id}
          onChange={(x) => {
            set('location_id', x as V['location_id']);
            if (x !== values.location_id) set('room_id', null as V['room_id']);
          }}
          error={errors.location_id}
          data-testid="location-select"
        />
        <Select
          label="Salón"
          placeholder={values.location_id && roomOptions.length === 0 ? 'Esta sucursal no tiene salones' : 'Sin salón'}
          clearable
          disabled={!values.location_id || roomOptions.length === 0}
          data={roomOptions}
          value={values.room_id}
          onChange={(x) => set('room_id', x as V['room_id'])}
          error={errors.room_id}
          description={values.location_id ? undefined : 'Elige antes la sucursal.'}
          data-testid="room-select"
        />
        <MultiSelect
          label="Coaches"
          searchable
          data={(instructors.data?.instructors ?? []).map((i) => ({ value: String(i.instructor_id), label: `${i.name} ${i.last_name}` }))}
          value={values.instructor_ids}
          onChange={(x) => set('instructor_ids', x as V['instructor_ids'])}
          error={errors.instructor_ids}
          data-testid="coach-select"
        />
        <SimpleGrid cols={2}>
          <NumberInput label="Cupo" required value={values.capacity} onChange={(x) => set('capacity', x as V['capacity'])} error={errors.capacity} allowDecimal={false} min={1} />
          <NumberInput
            label="Duración (min)"
            required
            value={values.duration_minutes}
            onChange={(x) => set('duration_minutes', x as V['duration_minutes'])}
            error={errors.duration_minutes}
            allowDecimal={false}
            min={5}
          />
        </SimpleGrid>
      </SimpleGrid>
      <Textarea label="Descripción" autosize minRows={1} value={values.description} onChange={(e) => set('description', e.currentTarget.value as V['description'])} error={errors.description} />
    </>
  );
}
