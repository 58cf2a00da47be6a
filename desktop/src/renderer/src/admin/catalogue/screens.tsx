import { Badge, Button } from '@mantine/core';
import { useCallback, useState } from 'react';
import {
  announcementCreateInput,
  announcementUpdateInput,
  classCategoryCreateInput,
  classCategoryUpdateInput,
  classTypeCreateInput,
  classTypeUpdateInput,
  instructorCreateInput,
  instructorUpdateInput,
  locationCreateInput,
  locationUpdateInput,
  pageCreateInput,
  pageUpdateInput,
  texts,
} from '@estudio/core';
import { dateOf } from '../../format.ts';
import { api } from '../api.ts';
import { CatalogueScreen, type FieldSpec } from './CatalogueScreen.tsx';
import { RoomsModal } from './RoomsModal.tsx';

const t = texts.adminConsole;
const hidden = (available: boolean) => (available ? null : <Badge color="gray" size="xs" ml={6}>Oculto</Badge>);

export function LocationsScreen() {
  const list = api.locations.list.useQuery({});
  const utils = api.useUtils();
  const done = () => utils.locations.invalidate();
  const create = api.locations.create.useMutation({ onSuccess: done });
  const update = api.locations.update.useMutation({ onSuccess: done });
  const remove = api.locations.remove.useMutation({ onSuccess: done });
  const [roomsOf, setRoomsOf] = useState<{ location_id: number; name: string } | null>(null);
  // The public list carries only the summary: the form reads the whole location when opened for editing.
  const loadLocation = useCallback(
    async (row: { location_id: number }) => {
      const { location: l } = await utils.locations.byId.fetch({ id: row.location_id });
      return { name: l.name, description: l.description ?? '', address: l.address, city: l.city ?? '', phone: l.phone ?? '', maps_url: l.maps_url ?? '', order: l.order, available: l.available };
    },
    [utils],
  );
  const fields: FieldSpec[] = [
    { key: 'name', label: 'Nombre', kind: 'text', required: true },
    { key: 'description', label: 'Descripción', kind: 'textarea', optional: true },
    { key: 'address', label: 'Dirección', kind: 'text', required: true },
    { key: 'city', label: 'Ciudad', kind: 'text', optional: true },
    { key: 'phone', label: 'Teléfono', kind: 'text', optional: true },
    { key: 'maps_url', label: 'Liga del mapa', kind: 'text', optional: true },
    { key: 'order', label: 'Orden', kind: 'number' },
    { key: 'available', label: 'Disponible', kind: 'checkbox' },
  ];
  return (
    <>
      <CatalogueScreen
        testId="locations"
        rows={list.data?.locations}
        query={list}
        rowId={(r) => r.location_id}
        rowTitle={(r) => r.name}
        searchText={(r) => `${r.name} ${r.address ?? ''}`}
        columns={[
          { label: 'Nombre', render: (r) => r.name },
          { label: 'Dirección', render: (r) => r.address ?? '—' },
          {
            label: 'Salones',
            render: (r) => (
              <Button size="compact-sm" variant="light" onClick={() => setRoomsOf({ location_id: r.location_id, name: r.name })} data-testid="location-rooms">
                Salones
              </Button>
            ),
          },
        ]}
        fields={fields}
        blank={{ name: '', description: '', address: '', city: '', phone: '', maps_url: '', order: 0, available: true }}
        toValues={(r) => ({ name: r.name, description: '', address: r.address ?? '', city: '', phone: '', maps_url: '', order: '', available: true })}
        loadValues={loadLocation}
        createSchema={locationCreateInput}
        updateSchema={locationUpdateInput}
        idKey="location_id"
        create={(input) => create.mutateAsync(input)}
        update={(input) => update.mutateAsync(input)}
        remove={(id) => remove.mutateAsync({ id })}
      />
      {roomsOf && <RoomsModal location={roomsOf} onClose={() => setRoomsOf(null)} />}
    </>
  );
}

export function ClassTypesScreen() {
  const list = api.classTypes.list.useQuery();
  const categories = api.classCategories.list.useQuery();
  const utils = api.useUtils();
  const done = () => utils.classTypes.invalidate();
  const create = api.classTypes.create.useMutation({ onSuccess: done });
  const update = api.classTypes.update.useMutation({ onSuccess: done });
  const remove = api.classTypes.remove.useMutation({ onSuccess: done });
  const categoryOptions = (categories.data?.class_categories ?? []).map((c) => ({ value: String(c.class_category_id), label: c.name }));
  const categoryName = (id: number | null) => categories.data?.class_categories.find((c) => c.class_category_id === id)?.name ?? '—';
  return (
    <CatalogueScreen
      testId="class-types"
      rows={list.data?.class_types}
      query={list}
      rowId={(r) => r.class_type_id}
      rowTitle={(r) => r.name}
      searchText={(r) => r.name}
      columns={[
        { label: 'Nombre', render: (r) => <>{r.name}{hidden(r.available)}</> },
        { label: 'Categoría', render: (r) => categoryName(r.class_category_id) },
        { label: 'Mapa de lugares', render: (r) => r.spot_map ?? '—' },
        { label: 'Orden', render: (r) => r.order },
      ]}
      fields={[
        { key: 'name', label: 'Nombre', kind: 'text', required: true },
        { key: 'class_category_id', label: 'Categoría', kind: 'select', options: categoryOptions },
        { key: 'spot_map', label: 'Mapa de lugares (p. ej. 4,6,6)', kind: 'text', optional: true },
        { key: 'icon', label: 'Icono', kind: 'image', optional: true },
        { key: 'image', label: 'Imagen', kind: 'image', optional: true },
        { key: 'order', label: 'Orden', kind: 'number' },
        { key: 'description', label: 'Descripción', kind: 'textarea', optional: true },
        { key: 'level', label: 'Nivel (p. ej. Todos los niveles)', kind: 'text', optional: true },
        { key: 'what_to_bring', label: 'Qué traer', kind: 'textarea', optional: true },
        { key: 'available', label: 'Disponible', kind: 'checkbox' },
      ]}
      blank={{ name: '', class_category_id: null, spot_map: '', icon: '', image: '', order: 0, description: '', level: '', what_to_bring: '', available: true }}
      toValues={(r) => ({
        name: r.name,
        class_category_id: r.class_category_id === null ? null : String(r.class_category_id),
        spot_map: r.spot_map ?? '',
        icon: r.icon ?? '',
        image: r.image ?? '',
        order: r.order,
        description: r.description ?? '',
        level: r.level ?? '',
        what_to_bring: r.what_to_bring ?? '',
        available: r.available,
      })}
      createSchema={classTypeCreateInput}
      updateSchema={classTypeUpdateInput}
      idKey="class_type_id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
    />
  );
}

export function CategoriesScreen() {
  const list = api.classCategories.list.useQuery();
  const utils = api.useUtils();
  const done = () => utils.classCategories.invalidate();
  const create = api.classCategories.create.useMutation({ onSuccess: done });
  const update = api.classCategories.update.useMutation({ onSuccess: done });
  const remove = api.classCategories.remove.useMutation({ onSuccess: done });
  return (
    <CatalogueScreen
      testId="categories"
      rows={list.data?.class_categories}
      query={list}
      rowId={(r) => r.class_category_id}
      rowTitle={(r) => r.name}
      searchText={(r) => `${r.name} ${r.handle}`}
      columns={[
        { label: 'Nombre', render: (r) => <>{r.name}{hidden(r.available)}</> },
        { label: 'Identificador', render: (r) => r.handle },
      ]}
      fields={[
        { key: 'name', label: 'Nombre', kind: 'text', required: true },
        { key: 'handle', label: 'Identificador (vacío: del nombre)', kind: 'text', omitEmpty: true },
        { key: 'description', label: 'Descripción', kind: 'textarea', optional: true },
        { key: 'available', label: 'Disponible', kind: 'checkbox' },
      ]}
      blank={{ name: '', handle: '', description: '', available: true }}
      toValues={(r) => ({ name: r.name, handle: r.handle, description: r.description ?? '', available: r.available })}
      createSchema={classCategoryCreateInput}
      updateSchema={classCategoryUpdateInput}
      idKey="class_category_id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
      removal={(id) => utils.classCategories.removal.fetch({ id }, { staleTime: 0 })}
    />
  );
}

export function InstructorsScreen() {
  const list = api.instructors.list.useQuery();
  const utils = api.useUtils();
  const done = () => utils.instructors.invalidate();
  const create = api.instructors.create.useMutation({ onSuccess: done });
  const update = api.instructors.update.useMutation({ onSuccess: done });
  const remove = api.instructors.remove.useMutation({ onSuccess: done });
  return (
    <CatalogueScreen
      testId="instructors"
      rows={list.data?.instructors}
      query={list}
      rowId={(r) => r.instructor_id}
      rowTitle={(r) => `${r.name} ${r.last_name}`}
      searchText={(r) => `${r.name} ${r.last_name} ${r.nick_name ?? ''}`}
      columns={[
        { label: 'Nombre', render: (r) => <>{r.name} {r.last_name}{hidden(r.available)}</> },
        { label: 'Instagram', render: (r) => r.instagram ?? '—' },
        { label: 'En el home', render: (r) => (r.show_on_home ? t.yes : t.no) },
        { label: texts.coachAccount.label, render: (r) => r.account_email ?? '—' },
      ]}
      fields={[
        { key: 'name', label: 'Nombre', kind: 'text', required: true },
        { key: 'last_name', label: 'Apellido', kind: 'text' },
        { key: 'customer_email', label: texts.coachAccount.label, kind: 'text', optional: true, description: texts.coachAccount.description },
        { key: 'nick_name', label: 'Apodo', kind: 'text', optional: true },
        { key: 'instagram', label: 'Instagram', kind: 'text', optional: true },
        { key: 'birthdate', label: 'Fecha de nacimiento', kind: 'date', optional: true },
        { key: 'music_type', label: 'Música', kind: 'text', optional: true },
        { key: 'quote', label: 'Frase', kind: 'text', optional: true },
        { key: 'order', label: 'Orden', kind: 'number' },
        { key: 'short_bio', label: 'Biografía', kind: 'textarea', optional: true },
        { key: 'file_id', label: 'Foto', kind: 'imageFile' },
        { key: 'show_on_home', label: 'En el home', kind: 'checkbox' },
        { key: 'available', label: 'Disponible', kind: 'checkbox' },
      ]}
      blank={{ name: '', last_name: '', customer_email: '', nick_name: '', instagram: '', birthdate: '', music_type: '', quote: '', order: 0, short_bio: '', file_id: null, 'file_id:src': '', show_on_home: false, available: true }}
      toValues={(r) => ({
        name: r.name,
        last_name: r.last_name,
        customer_email: r.account_email ?? '',
        nick_name: r.nick_name ?? '',
        instagram: r.instagram ?? '',
        birthdate: r.birthdate ?? '',
        music_type: r.music_type ?? '',
        quote: r.quote ?? '',
        order: r.order,
        short_bio: r.short_bio ?? '',
        file_id: r.file_id,
        'file_id:src': r.file?.src ?? '',
        show_on_home: r.show_on_home,
        available: r.available,
      })}
      createSchema={instructorCreateInput}
      updateSchema={instructorUpdateInput}
      idKey="id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
      removal={(id) => utils.instructors.removal.fetch({ id }, { staleTime: 0 })}
    />
  );
}

export function AnnouncementsScreen() {
  const list = api.announcements.list.useQuery();
  const utils = api.useUtils();
  const done = () => utils.announcements.invalidate();
  const create = api.announcements.create.useMutation({ onSuccess: done });
  const update = api.announcements.update.useMutation({ onSuccess: done });
  const remove = api.announcements.remove.useMutation({ onSuccess: done });
  return (
    <CatalogueScreen
      testId="announcements"
      rows={list.data?.announcements}
      query={list}
      rowId={(r) => r.announcement_id}
      rowTitle={(r) => r.title}
      searchText={(r) => `${r.title} ${r.content}`}
      columns={[
        { label: 'Título', render: (r) => <>{r.title}{hidden(r.available)}</> },
        { label: 'Fecha', render: (r) => dateOf(r.createdAt) },
      ]}
      fields={[
        { key: 'title', label: 'Título', kind: 'text', required: true },
        { key: 'available', label: 'Visible', kind: 'checkbox' },
        { key: 'content', label: 'Contenido', kind: 'textarea', required: true },
        { key: 'file_id', label: 'Imagen', kind: 'imageFile' },
      ]}
      blank={{ title: '', available: true, content: '', file_id: null, 'file_id:src': '' }}
      toValues={(r) => ({ title: r.title, available: r.available, content: r.content, file_id: r.file_id, 'file_id:src': r.file?.src ?? '' })}
      createSchema={announcementCreateInput}
      updateSchema={announcementUpdateInput}
      idKey="announcement_id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
      savedMessage={t.announcementSaved}
      deletedMessage={t.announcementDeleted}
    />
  );
}

export function PagesScreen() {
  const list = api.pages.list.useQuery();
  const utils = api.useUtils();
  const done = () => utils.pages.invalidate();
  const create = api.pages.create.useMutation({ onSuccess: done });
  const update = api.pages.update.useMutation({ onSuccess: done });
  const remove = api.pages.remove.useMutation({ onSuccess: done });
  return (
    <CatalogueScreen
      testId="pages"
      rows={list.data?.pages}
      query={list}
      rowId={(r) => r.page_id}
      rowTitle={(r) => r.title}
      searchText={(r) => `${r.title} ${r.slug}`}
      columns={[
        { label: 'Título', render: (r) => r.title },
        { label: 'Slug', render: (r) => `/${r.slug}` },
        { label: 'Requerida', render: (r) => (r.required ? t.yes : t.no) },
        { label: t.pageVersion, render: (r) => r.version },
      ]}
      fields={[
        { key: 'title', label: 'Título', kind: 'text', required: true },
        { key: 'slug', label: 'Slug', kind: 'text', required: true },
        { key: 'required', label: 'Los clientes deben aceptarla', kind: 'checkbox' },
        { key: 'content', label: 'Contenido (HTML)', kind: 'textarea', optional: true, images: true },
        // A change customers must accept again (the privacy notice's new text) is published as the next version (decision 122).
        { key: 'new_version', label: t.pageNewVersion, description: t.pageNewVersionHint, kind: 'checkbox', editOnly: true },
      ]}
      blank={{ title: '', slug: '', required: false, content: '' }}
      toValues={(r) => ({ title: r.title, slug: r.slug, required: r.required, content: r.content ?? '', new_version: false })}
      createSchema={pageCreateInput}
      updateSchema={pageUpdateInput}
      idKey="page_id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
      removal={(id) => utils.pages.removal.fetch({ id }, { staleTime: 0 })}
    />
  );
}
