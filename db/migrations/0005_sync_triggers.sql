-- Change log triggers (decision 008). Every write to a replicated table appends
-- its key to sync_change in the writing transaction and pokes the desks.
-- The key columns are the trigger's arguments; identical notifications within
-- one transaction are folded by PostgreSQL, so a busy transaction pokes once.
CREATE FUNCTION sync_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
  row_key jsonb := '{}'::jsonb;
  key_column text;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := to_jsonb(OLD); ELSE changed := to_jsonb(NEW); END IF;
  FOREACH key_column IN ARRAY TG_ARGV LOOP
    row_key := row_key || jsonb_build_object(key_column, changed -> key_column);
  END LOOP;
  INSERT INTO sync_change (txid, table_name, row_key)
    VALUES (pg_current_xact_id()::text::bigint, TG_TABLE_NAME, row_key);
  PERFORM pg_notify('sync_change', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER location_sync_log AFTER INSERT OR DELETE ON "location" FOR EACH ROW EXECUTE FUNCTION sync_log_change('location_id');
--> statement-breakpoint
CREATE TRIGGER location_sync_log_update AFTER UPDATE ON "location" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('location_id');
--> statement-breakpoint
CREATE TRIGGER class_type_sync_log AFTER INSERT OR DELETE ON "class_type" FOR EACH ROW EXECUTE FUNCTION sync_log_change('class_type_id');
--> statement-breakpoint
CREATE TRIGGER class_type_sync_log_update AFTER UPDATE ON "class_type" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('class_type_id');
--> statement-breakpoint
CREATE TRIGGER instructor_sync_log AFTER INSERT OR DELETE ON "instructor" FOR EACH ROW EXECUTE FUNCTION sync_log_change('instructor_id');
--> statement-breakpoint
CREATE TRIGGER instructor_sync_log_update AFTER UPDATE ON "instructor" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('instructor_id');
--> statement-breakpoint
CREATE TRIGGER class_package_sync_log AFTER INSERT OR DELETE ON "class_package" FOR EACH ROW EXECUTE FUNCTION sync_log_change('class_package_id');
--> statement-breakpoint
CREATE TRIGGER class_package_sync_log_update AFTER UPDATE ON "class_package" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('class_package_id');
--> statement-breakpoint
CREATE TRIGGER payment_method_sync_log AFTER INSERT OR DELETE ON "payment_method" FOR EACH ROW EXECUTE FUNCTION sync_log_change('payment_method_id');
--> statement-breakpoint
CREATE TRIGGER payment_method_sync_log_update AFTER UPDATE ON "payment_method" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('payment_method_id');
--> statement-breakpoint
CREATE TRIGGER single_class_sync_log AFTER INSERT OR DELETE ON "single_class" FOR EACH ROW EXECUTE FUNCTION sync_log_change('single_class_id');
--> statement-breakpoint
CREATE TRIGGER single_class_sync_log_update AFTER UPDATE ON "single_class" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('single_class_id');
--> statement-breakpoint
CREATE TRIGGER single_class_instructor_sync_log AFTER INSERT OR DELETE ON "single_class_instructor" FOR EACH ROW EXECUTE FUNCTION sync_log_change('single_class_id', 'instructor_id');
--> statement-breakpoint
CREATE TRIGGER single_class_instructor_sync_log_update AFTER UPDATE ON "single_class_instructor" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('single_class_id', 'instructor_id');
--> statement-breakpoint
CREATE TRIGGER customer_sync_log AFTER INSERT OR DELETE ON "customer" FOR EACH ROW EXECUTE FUNCTION sync_log_change('customer_id');
--> statement-breakpoint
CREATE TRIGGER customer_sync_log_update AFTER UPDATE ON "customer" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('customer_id');
--> statement-breakpoint
CREATE TRIGGER class_reservation_sync_log AFTER INSERT OR DELETE ON "class_reservation" FOR EACH ROW EXECUTE FUNCTION sync_log_change('class_reservation_id');
--> statement-breakpoint
CREATE TRIGGER class_reservation_sync_log_update AFTER UPDATE ON "class_reservation" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('class_reservation_id');
--> statement-breakpoint
CREATE TRIGGER available_classes_sync_log AFTER INSERT OR DELETE ON "available_classes" FOR EACH ROW EXECUTE FUNCTION sync_log_change('available_class_id');
--> statement-breakpoint
CREATE TRIGGER available_classes_sync_log_update AFTER UPDATE ON "available_classes" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('available_class_id');
--> statement-breakpoint
CREATE TRIGGER purchase_sync_log AFTER INSERT OR DELETE ON "purchase" FOR EACH ROW EXECUTE FUNCTION sync_log_change('purchase_id');
--> statement-breakpoint
CREATE TRIGGER purchase_sync_log_update AFTER UPDATE ON "purchase" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('purchase_id');
--> statement-breakpoint
CREATE TRIGGER waitlist_sync_log AFTER INSERT OR DELETE ON "waitlist" FOR EACH ROW EXECUTE FUNCTION sync_log_change('waitlist_id');
--> statement-breakpoint
CREATE TRIGGER waitlist_sync_log_update AFTER UPDATE ON "waitlist" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('waitlist_id');
--> statement-breakpoint
CREATE TRIGGER class_reservation_penalty_sync_log AFTER INSERT OR DELETE ON "class_reservation_penalty" FOR EACH ROW EXECUTE FUNCTION sync_log_change('class_reservation_penalty_id');
--> statement-breakpoint
CREATE TRIGGER class_reservation_penalty_sync_log_update AFTER UPDATE ON "class_reservation_penalty" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('class_reservation_penalty_id');
