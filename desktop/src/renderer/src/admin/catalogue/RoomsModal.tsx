import { Modal, Text } from '@mantine/core';
import { roomCreateInput, roomUpdateInput } from '@estudio/core';
import { api } from '../api.ts';
import { CatalogueScreen, type FieldSpec } from './CatalogueScreen.tsx';

const fields: FieldSpec[] = [
  { key: 'name', label: 'Nombre', kind: 'text', required: true },
  { key: 'capacity', label: 'Cupo', kind: 'number', optional: true, description: 'Las clases de este salón no pueden tener más lugares. Vacío: sin límite del salón.' },
  { key: 'spot_map', label: 'Mapa de lugares (p. ej. 4,6,6)', kind: 'text', optional: true, description: 'Lugares por fila, desde la fila del fondo. Sus clases usan este mapa en vez del de su tipo de clase.' },
];

/** The form checks the room's own fields; the location is the one the modal is for. */
const createFields = roomCreateInput.omit({ location_id: true });

/** «Salones» of one location (decision 140): list, add, edit and remove, each with its capacity and seat map. */
export function RoomsModal({ location, onClose }: { location: { location_id: number; name: string }; onClose: () => void }) {
  const list = api.rooms.list.useQuery({ location_id: location.location_id });
  const utils = api.useUtils();
  const done = () => utils.rooms.invalidate();
  const create = api.rooms.create.useMutation({ onSuccess: done });
  const update = api.rooms.update.useMutation({ onSuccess: done });
  const remove = api.rooms.remove.useMutation({ onSuccess: done });
  return (
    <Modal opened onClose={onClose} title={`Salones de ${location.name}`} size="xl" centered>
      <Text size="sm" c="dimmed" mb="sm">
        Cada salón tiene su cupo y su mapa de lugares. Dos clases en salones distintos de la sucursal pueden ser a la misma hora.
      </Text>
      <CatalogueScreen
        testId="rooms"
        rows={list.data?.rooms}
        query={list}
        rowId={(r) => r.room_id}
        rowTitle={(r) => r.name}
        searchText={(r) => r.name}
        columns={[
          { label: 'Nombre', render: (r) => r.name },
          { label: 'Cupo', render: (r) => r.capacity ?? '—' },
          { label: 'Mapa de lugares', render: (r) => r.spot_map ?? '—' },
        ]}
        fields={fields}
        blank={{ name: '', capacity: '', spot_map: '' }}
        toValues={(r) => ({ name: r.name, capacity: r.capacity ?? '', spot_map: r.spot_map ?? '' })}
        createSchema={createFields}
        updateSchema={roomUpdateInput}
        idKey="room_id"
        create={(input) => create.mutateAsync({ ...input, location_id: location.location_id })}
        update={(input) => update.mutateAsync(input)}
        remove={(id) => remove.mutateAsync({ room_id: id })}
        savedMessage="Salón guardado."
        deletedMessage="Salón eliminado."
      />
    </Modal>
  );
}
