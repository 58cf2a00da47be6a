-- Invariantes de los datos del estudio.
--
--   psql "$DATABASE_URL" -f bench/invariants.sql
--
-- Una fila por invariante violado: `invariante` (clave estable, para pruebas),
-- `descripcion` (en español) y `cantidad` (cuántas filas lo violan). Sin
-- filas: los datos son consistentes. Solo lee; es una sola consulta, así que
-- una prueba la puede correr dentro de su transacción
-- (server/test/invariants.test.ts la corre en PGlite y en PostgreSQL).
--
-- "Viva" es una reservación sin deleted_at (cancelar la marca, no la borra).

with
-- Lo que cada crédito limitado otorgado por una compra tuvo al nacer
-- (services/checkout/grant-purchase.ts): la cantidad de su tipo de clase cuando
-- el paquete reparte por tipo (class_package_type), si no la de la compra.
credito_inicial as (
  select ac.available_class_id,
         ac.customer_id,
         ac.available_classes as quedan,
         coalesce(
           (select t.class_amount from class_package_type t
             where t.class_package_id = p.class_package_id and t.class_type_id = ac.class_type_id
             order by t.class_package_type_id limit 1),
           p.class_amount
         ) as inicial
    from available_classes ac
    join purchase p on p.purchase_id = ac.purchase_id
),
-- Clases gastadas de cada crédito: reservaciones vivas que lo usaron, más las
-- canceladas que no lo devolvieron (cancelación tardía: credit_returned false).
-- Una cancelación siempre escribe credit_returned, así que null solo lo tiene
-- una reservación viva.
gastado as (
  select r.available_class_id, count(*) as clases
    from class_reservation r
   where r.available_class_id is not null
     and (r.deleted_at is null or r.credit_returned is not true)
   group by r.available_class_id
),
-- Una fila por tabla replicada a las recepciones (core/src/schemas/sync.ts,
-- replicatedTables): su llave como la escriben los triggers de
-- db/migrations/0005_sync_triggers.sql en sync_change.row_key.
filas_replicadas as (
            select 'location' as tabla, jsonb_build_object('location_id', location_id) as llave from location
  union all select 'class_type', jsonb_build_object('class_type_id', class_type_id) from class_type
  union all select 'instructor', jsonb_build_object('instructor_id', instructor_id) from instructor
  union all select 'class_package', jsonb_build_object('class_package_id', class_package_id) from class_package
  union all select 'payment_method', jsonb_build_object('payment_method_id', payment_method_id) from payment_method
  union all select 'customer', jsonb_build_object('customer_id', customer_id) from customer
  union all select 'single_class', jsonb_build_object('single_class_id', single_class_id) from single_class
  union all select 'single_class_instructor', jsonb_build_object('single_class_id', single_class_id, 'instructor_id', instructor_id) from single_class_instructor
  union all select 'purchase', jsonb_build_object('purchase_id', purchase_id) from purchase
  union all select 'available_classes', jsonb_build_object('available_class_id', available_class_id) from available_classes
  union all select 'class_reservation', jsonb_build_object('class_reservation_id', class_reservation_id) from class_reservation
  union all select 'waitlist', jsonb_build_object('waitlist_id', waitlist_id) from waitlist
  union all select 'class_reservation_penalty', jsonb_build_object('class_reservation_penalty_id', class_reservation_penalty_id) from class_reservation_penalty
  union all select 'page', jsonb_build_object('page_id', page_id) from page
  union all select 'accepted_page', jsonb_build_object('accepted_page_id', accepted_page_id) from accepted_page
  union all select 'customer_note', jsonb_build_object('customer_note_id', customer_note_id) from customer_note
  union all select 'product', jsonb_build_object('product_id', product_id) from product
  union all select 'room', jsonb_build_object('room_id', room_id) from room
),
violaciones as (
  -- Cupo: cada reservación viva ocupa un lugar y su invitado otro (core/src/rules/capacity.ts).
  select 'cupo' as invariante,
         'Clases con más lugares ocupados (reservaciones vivas más sus invitados) que su cupo' as descripcion,
         (select count(*) from (
            select s.single_class_id
              from single_class s
              join class_reservation r on r.single_class_id = s.single_class_id and r.deleted_at is null
             group by s.single_class_id, s.capacity
            having count(*) + count(r.guest) > s.capacity) x) as cantidad

  union all
  select 'lugar',
         'Lugares con más de una reservación viva en la misma clase',
         (select count(*) from (
            select single_class_id, spot
              from class_reservation
             where deleted_at is null and spot is not null
             group by single_class_id, spot
            having count(*) > 1) x)

  union all
  select 'credito-negativo',
         'Créditos por debajo de -1 (-1 es ilimitado; uno limitado nunca baja de 0)',
         (select count(*) from available_classes where available_classes < -1)

  union all
  -- Un crédito limitado que llega a -1 se volvería ilimitado: solo un paquete ilimitado (o recepción, sin compra) da -1.
  select 'credito-limitado-ilimitado',
         'Créditos de una compra limitada que quedaron en -1 (ilimitado)',
         (select count(*) from credito_inicial where inicial <> -1 and quedan = -1)

  union all
  -- El libro de un crédito limitado de compra: lo que queda más lo gastado no pasa de lo que se compró.
  -- Es una desigualdad y no una igualdad a propósito: recepción corrige créditos a mano
  -- (PUT /available_classes/{id}, PUT /customer/removeClasses) sin dejar la cantidad en ningún registro,
  -- y quitar clases deja "quedan + gastado < inicial" sin que falte nada. Lo que nunca puede pasar es que
  -- sobren: una reservación que no gastó su crédito, o una cancelación que lo devolvió dos veces.
  -- (Subir a mano un crédito de compra por encima de lo comprado también aparece aquí: para regalar
  -- clases, recepción otorga un crédito nuevo, POST /available_classes.)
  -- Los créditos otorgados por recepción sin compra no tienen cantidad inicial registrada: solo les aplica
  -- 'credito-negativo'.
  select 'credito-libro',
         'Créditos limitados de una compra con más clases (disponibles más gastadas) de las que se compraron',
         (select count(*)
            from credito_inicial ci
            left join gastado g on g.available_class_id = ci.available_class_id
           where ci.inicial <> -1 and ci.quedan >= 0
             and ci.quedan + coalesce(g.clases, 0) > ci.inicial)

  union all
  select 'credito-ajeno',
         'Reservaciones pagadas con un crédito de otro cliente',
         (select count(*)
            from class_reservation r
            join available_classes ac on ac.available_class_id = r.available_class_id
           where ac.customer_id <> r.customer_id)

  union all
  -- Pagar y otorgar ocurren en una transacción (decisión 007): una compra pagada de un paquete con clases tiene sus créditos.
  -- Los paquetes sin clases (online, inscripción) dan acceso por la compra misma.
  select 'compra-sin-creditos',
         'Compras pagadas de un paquete con clases que no tienen sus créditos',
         (select count(*)
            from purchase p
           where p.status in ('active', 'completed')
             and (p.class_amount <> 0 or exists (select 1 from class_package_type t where t.class_package_id = p.class_package_id))
             and not exists (select 1 from available_classes ac where ac.purchase_id = p.purchase_id))

  union all
  select 'descuento-usos',
         'Descuentos usados más veces que su máximo',
         (select count(*)
            from discount d
           where d.max_uses is not null
             and (d.uses > d.max_uses or (select count(*) from discount_use u where u.discount_id = d.discount_id) > d.max_uses))

  union all
  select 'descuento-usos-cliente',
         'Clientes que usaron un descuento más veces que su máximo por cliente',
         (select count(*) from (
            select u.discount_id, u.customer_id
              from discount_use u
              join discount d on d.discount_id = u.discount_id
             where d.max_uses_per_customer is not null
             group by u.discount_id, u.customer_id, d.max_uses_per_customer
            having count(*) > d.max_uses_per_customer) x)

  union all
  -- Los topes se cuentan desde las compras pagadas alguna vez (paid_at), no solo desde los contadores
  -- (services/checkout/purchase-caps.ts los revisa al crear y otra vez al pagar): una compra pagada
  -- y luego cancelada, revocada o reembolsada sigue ocupando su lugar, salvo que un admin lo haya
  -- devuelto con un motivo (limit_released_at).
  select 'paquete-cupo',
         'Paquetes con más compras pagadas (canceladas incluidas) que su límite de personas',
         (select count(*)
            from class_package cp
           where cp.people_limit is not null
             and (select count(*) from purchase p where p.class_package_id = cp.class_package_id and p.paid_at is not null and p.limit_released_at is null) > cp.people_limit)

  union all
  -- Una prueba gratis cancelada y tomada otra vez es una compra de más.
  select 'paquete-por-cliente',
         'Clientes con más compras pagadas de un paquete (canceladas incluidas) que su límite por cliente',
         (select count(*) from (
            select p.class_package_id, p.customer_id
              from purchase p
              join class_package cp on cp.class_package_id = p.class_package_id
             where cp.limit_per_customer is not null and p.paid_at is not null and p.limit_released_at is null
             group by p.class_package_id, p.customer_id, cp.limit_per_customer
            having count(*) > cp.limit_per_customer) x)

  union all
  select 'descuento-compras',
         'Descuentos con más compras pagadas (canceladas incluidas) que su máximo de usos',
         (select count(*)
            from discount d
           where d.max_uses is not null
             and (select count(*) from purchase p where p.discount_id = d.discount_id and p.paid_at is not null and p.limit_released_at is null) > d.max_uses)

  union all
  select 'descuento-compras-cliente',
         'Clientes con más compras pagadas con un descuento (canceladas incluidas) que su máximo por cliente',
         (select count(*) from (
            select p.discount_id, p.customer_id
              from purchase p
              join discount d on d.discount_id = p.discount_id
             where d.max_uses_per_customer is not null and p.paid_at is not null and p.limit_released_at is null
             group by p.discount_id, p.customer_id, d.max_uses_per_customer
            having count(*) > d.max_uses_per_customer) x)

  union all
  -- Una compra pagada con descuento tiene su uso registrado; si no, el contador se queda corto (el ataque: 6 pagadas, contador en 1).
  select 'descuento-compra-sin-uso',
         'Compras pagadas con descuento sin su uso registrado (el contador del descuento se queda corto)',
         (select count(*)
            from purchase p
           where p.discount_id is not null and p.paid_at is not null and p.limit_released_at is null
             and not exists (select 1 from discount_use u where u.purchase_id = p.purchase_id and u.discount_id = p.discount_id))

  union all
  -- El dinero recibido se marca una vez (paid_at, services/checkout/grant-purchase.ts): una compra
  -- vigente sin esa marca, o una pendiente o fallida con ella, cuenta mal las ventas y los topes.
  select 'pago-sin-marca',
         'Compras cuyo estado no concuerda con su pago: vigentes sin fecha de pago, o pendientes o fallidas con ella',
         (select count(*)
            from purchase p
           where (p.status in ('active', 'completed') and p.paid_at is null)
              or (p.status in ('pending', 'failed') and p.paid_at is not null))

  union all
  -- Créditos que nadie pagó: de una compra nunca pagada, o dados sin compra por el personal sin su
  -- registro en Actividad (services/credits/grant-credits.ts escribe los dos en una transacción), ni
  -- traídos de otro sistema (services/import: la línea importada nombra el crédito, o la reservación
  -- importada que lo lleva).
  select 'credito-sin-origen',
         'Créditos sin una compra pagada, un regalo registrado en Actividad ni una línea importada detrás',
         (select count(*)
            from available_classes ac
            left join purchase p on p.purchase_id = ac.purchase_id
           where (ac.purchase_id is not null and p.paid_at is null)
              or (ac.purchase_id is null and not exists (
                    select 1 from audit_log a
                     where a.action = 'credits.grant' and a.entity = 'customer'
                       and jsonb_typeof(a.changes) = 'object' and a.changes->>'available_class_id' = ac.available_class_id::text)
                  and not exists (select 1 from import_line il where il.kind = 'credit' and il.entity_id = ac.available_class_id)
                  and not exists (
                    select 1 from import_line il
                      join class_reservation r on r.class_reservation_id = il.entity_id
                     where il.kind = 'booking' and r.available_class_id = ac.available_class_id)))

  union all
  -- Un reembolso devuelve dinero recibido, y nunca más de lo que se pagó (services/refunds/refund-purchase.ts).
  select 'reembolso-sin-pago',
         'Reembolsos de compras que nunca se pagaron, o por más de lo que se pagó',
         (select count(*)
            from purchase p
           where exists (select 1 from invoice i where i.purchase_id = p.purchase_id and i.status = 'refunded')
             and (p.paid_at is null
                  or (select sum(i.total_payment) from invoice i where i.purchase_id = p.purchase_id and i.status = 'refunded') > p.total_payment))

  union all
  -- El corte de caja suma el efectivo de las órdenes 'Efectivo' cobradas (paid_at, sin transferencias):
  -- cada una tiene el cargo que registró el cobro, por su importe. Una orden contada como efectivo sin
  -- ese cargo, o con otro importe, es dinero que el cajón espera y nadie recibió.
  select 'caja-sin-cobro',
         'Órdenes en efectivo que el corte de caja cuenta sin el cargo que registró su cobro, o con otro importe',
         (select count(*)
            from purchase p
           where p.provider = 'cash' and p.paid_at is not null and p.paid_with is distinct from 'transfer' and not p.is_gift
             and not exists (select 1 from invoice i where i.purchase_id = p.purchase_id and i.status = 'completed'
                                                      and i.total_payment = p.total_payment and i.paid_at is not null))

  union all
  -- has_unlimited sigue en true después de vencer la membresía (nada lo apaga al pasar la fecha; el portal
  -- compara unlimited_membership_expiration), así que solo una membresía vigente exige su crédito vigente.
  select 'ilimitado-sin-credito',
         'Clientes marcados con membresía ilimitada vigente sin un crédito ilimitado (-1) vigente',
         (select count(*)
            from customer c
           where c.has_unlimited
             and (c.unlimited_membership_expiration is null or c.unlimited_membership_expiration > now())
             and not exists (
               select 1 from available_classes ac
                where ac.customer_id = c.customer_id and ac.available_classes = -1 and ac.deleted_at is null
                  and (ac.expiration_date is null or ac.expiration_date > now())))

  union all
  -- Decisión 008: los triggers escriben el registro de cambios; una fila sin cambio registrado nunca llegó a las recepciones.
  select 'sync-sin-cambio',
         'Filas de tablas replicadas sin ningún cambio en sync_change (las recepciones no las tienen)',
         (select count(*)
            from filas_replicadas f
           where not exists (select 1 from sync_change sc where sc.table_name = f.tabla and sc.row_key = f.llave))
)
select invariante, descripcion, cantidad
  from violaciones
 where cantidad > 0
 order by invariante;
