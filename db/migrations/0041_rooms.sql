CREATE TABLE "room" (
	"room_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "room_room_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"location_id" integer NOT NULL,
	"name" text NOT NULL,
	"capacity" integer,
	"spot_map" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "room_spot_map_check" CHECK ("room"."spot_map" is null or "room"."spot_map" ~ '^[0-9]+(,[0-9]+)*$'),
	CONSTRAINT "room_capacity_check" CHECK ("room"."capacity" is null or "room"."capacity" >= 0)
);
--> statement-breakpoint
ALTER TABLE "single_class" ADD COLUMN "room_id" integer;--> statement-breakpoint
ALTER TABLE "room" ADD CONSTRAINT "room_location_id_location_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."location"("location_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "room_location_id_idx" ON "room" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "room_location_name_key" ON "room" USING btree ("location_id","name") WHERE "room"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "single_class" ADD CONSTRAINT "single_class_room_id_room_room_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."room"("room_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "single_class_room_date_idx" ON "single_class" USING btree ("room_id","class_date");--> statement-breakpoint
CREATE TRIGGER room_sync_log AFTER INSERT OR DELETE ON "room" FOR EACH ROW EXECUTE FUNCTION sync_log_change('room_id');
--> statement-breakpoint
CREATE TRIGGER room_sync_log_update AFTER UPDATE ON "room" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('room_id');
--> statement-breakpoint
CREATE TRIGGER room_portal_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "room" FOR EACH STATEMENT EXECUTE FUNCTION portal_content_changed();
