import { Badge, Button, Group, Modal, NumberInput, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { productCreateInput, productUpdateInput, texts } from '@estudio/core';
import { useState } from 'react';
import { errorCode, errorText, money } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { ConfirmModal, FormError, Hint } from '../form-feedback.tsx';
import { ListTable, Loaded, RowActions, type ListColumn } from '../list-widgets.tsx';

const t = texts.adminConsole;
type Product = ApiOutputs['products']['list']['products'][number];

const noProducts = 'Aún no hay productos. Agrega el primero con «Nuevo producto».';
const pieces = (n: number) => (n === 1 ? '1 pieza' : `${n.toLocaleString('es-MX')} piezas`);

/** What is on the shelf: not counted, sold out (red: reception cannot sell it), or how many. */
function StockCell({ product }: { product: Product }) {
  if (product.stock === null) {
    return (
      <Text size="sm" c="dimmed">
        Sin control
      </Text>
    );
  }
  if (product.stock === 0) {
    return (
      <Badge color="red" variant="filled" data-testid="product-sold-out">
        Agotado
      </Badge>
    );
  }
  return <Text size="sm">{pieces(product.stock)}</Text>;
}

/** Whether reception sees it to sell. */
function CounterBadge({ product }: { product: Product }) {
  return product.available ? (
    <Badge color="teal" variant="light">
      Disponible
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      Oculto
    </Badge>
  );
}

/** The products' table: what each costs, what is left, whether the counter sells it and how many were sold. */
const productColumns: ListColumn<Product>[] = [
  { label: 'Producto', render: (p) => <Text fw={600}>{p.name}</Text> },
  { label: 'Precio', render: (p) => money(p.price) },
  { label: 'Existencias', render: (p) => <StockCell product={p} /> },
  { label: 'En mostrador', render: (p) => <CounterBadge product={p} /> },
  { label: 'Vendidos', render: (p) => p.sold.toLocaleString('es-MX') },
];

/** The owner's products sold at the counter (water, grip socks, a towel): Recepción sells what is available here. */
export function ProductsScreen() {
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [removing, setRemoving] = useState<Product | null>(null);
  const utils = api.useUtils();
  const list = api.products.list.useQuery({});
  // A table where its five columns fit beside the console's menu; narrower (a phone), one card per product.
  const wide = useMediaQuery('(min-width: 56em)', true);
  const remove = api.products.remove.useMutation({
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: r.soft ? 'El producto ya tenía ventas: quedó oculto y se conserva en el historial.' : 'Producto eliminado.' });
      setRemoving(null);
      void utils.products.invalidate();
    },
  });

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <Hint>Lo que se vende en recepción además de las clases. Las existencias bajan con cada venta; «Sin control» se vende siempre.</Hint>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')} data-testid="product-new">
          Nuevo producto
        </Button>
      </Group>
      <Loaded query={list}>
        {() => {
          const products = list.data?.products ?? [];
          const actions = (p: Product) => <RowActions name={p.name} onEdit={() => setEditing(p)} onDelete={() => setRemoving(p)} end />;
          if (wide) {
            return (
              <ListTable
                testId="products-table"
                rows={products}
                rowKey={(p) => p.product_id}
                columns={productColumns}
                rowProps={() => ({ 'data-testid': 'product-row' })}
                actions={actions}
                empty={noProducts}
              />
            );
          }
          return (
            <Stack gap="xs" data-testid="products-table">
              {products.map((p) => (
                <Paper key={p.product_id} withBorder p="sm" data-testid="product-row">
                  <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
                    <Stack gap={4} style={{ minWidth: 0 }}>
                      <Text fw={600}>{p.name}</Text>
                      <Text size="sm">{money(p.price)}</Text>
                      <Group gap="xs">
                        <StockCell product={p} />
                        <CounterBadge product={p} />
                      </Group>
                      <Text size="xs" c="dimmed">
                        {p.sold ? `Vendidos: ${p.sold.toLocaleString('es-MX')}` : 'Sin ventas'}
                      </Text>
                    </Stack>
                    {actions(p)}
                  </Group>
                </Paper>
              ))}
              {products.length === 0 && <Text c="dimmed">{noProducts}</Text>}
            </Stack>
          );
        }}
      </Loaded>
      {editing && (
        <ProductForm
          product={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void utils.products.invalidate();
          }}
        />
      )}
      <ConfirmModal
        opened={removing !== null}
        title={`${t.delete} ${removing?.name ?? ''}`}
        confirmLabel={removing?.sold ? t.archive : t.delete}
        onConfirm={() => removing && remove.mutate({ id: removing.product_id })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
        loading={remove.isPending}
        error={remove.error}
      >
        <Text size="sm" data-testid="product-remove-text">
          {removing?.sold
            ? `Ya se vendieron ${pieces(removing.sold)}: el producto se ocultará de recepción y de esta lista, y sus ventas se conservan en el historial y en los reportes.`
            : `Se eliminará el producto. ${t.cannotUndo}`}
        </Text>
      </ConfirmModal>
    </>
  );
}

function ProductForm({ product, onClose, onSaved }: { product: Product | null; onClose: () => void; onSaved: () => void }) {
  const form = useSchemaForm({
    name: product?.name ?? '',
    price: product ? String(Number(product.price)) : '',
    counted: product ? product.stock !== null : true,
    stock: (product?.stock ?? '') as number | string,
    available: product?.available ?? true,
  });
  const v = form.values;
  const e = form.errors;
  const done = (message: string) => {
    notifications.show({ color: 'teal', message });
    onSaved();
  };
  // A taken name is the name field's problem: said under it, not above the form.
  const onError = (error: unknown) => (errorCode(error) === 'product/name-taken' ? form.fieldError('name', errorText(error)) : form.serverError(error));
  const create = api.products.create.useMutation({ onSuccess: () => done('Producto creado.'), onError });
  const update = api.products.update.useMutation({ onSuccess: () => done(t.saved), onError });

  const payload = () => ({
    name: v.name,
    price: v.price,
    // Counted but left empty reaches the schema as '' and reads «Escribe las piezas en existencia como un número entero.».
    stock: v.counted ? v.stock : null,
    available: v.available,
  });
  const submit = () => {
    const input = form.validate(productCreateInput, payload());
    if (!input) return;
    if (!product) {
      create.mutate(input);
      return;
    }
    // Only what the owner changed: a stock left as it was must not overwrite the units the counter sold meanwhile.
    const changed = Object.fromEntries(Object.entries(input).filter(([key, value]) => value !== product[key as keyof typeof input]));
    if (Object.keys(changed).length === 0) return onClose();
    const changes = form.validate(productUpdateInput, { product_id: product.product_id, ...changed });
    if (changes) update.mutate(changes);
  };

  return (
    <Modal opened onClose={onClose} title={product ? `${t.edit}: ${product.name}` : 'Nuevo producto'} centered>
      <Stack gap="sm" data-testid="product-form">
        <TextInput label="Nombre" placeholder="Por ejemplo: Agua 600 ml" required value={v.name} onChange={(ev) => form.set('name', ev.currentTarget.value)} error={e.name} />
        <TextInput
          label="Precio (MXN)"
          placeholder="25.00"
          leftSection="$"
          inputMode="decimal"
          required
          value={v.price}
          onChange={(ev) => form.set('price', ev.currentTarget.value)}
          error={e.price}
        />
        <Switch
          label="Controlar existencias"
          description="Recepción no podrá vender más piezas de las que hay. Apagado: se vende siempre, sin contar."
          checked={v.counted}
          onChange={(ev) => form.set('counted', ev.currentTarget.checked)}
          data-testid="product-counted"
        />
        {v.counted && (
          <NumberInput
            label="Existencias (piezas)"
            placeholder="Por ejemplo: 24"
            value={v.stock}
            onChange={(x) => form.set('stock', x)}
            error={e.stock}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            min={0}
          />
        )}
        <Switch
          label="Disponible en mostrador"
          description="Apagado: recepción no lo ve para vender, pero sigue en esta lista."
          checked={v.available}
          onChange={(ev) => form.set('available', ev.currentTarget.checked)}
          data-testid="product-available"
        />
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={submit} loading={create.isPending || update.isPending} data-testid="product-save">
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
