-- Decision 105: "Reservar cada semana". A customer's weekly place (a slot on the studio's wall clock) and each week's
-- class it tried once: the reservation made, or the booking service's refusal.
CREATE TABLE "standing_booking" (
	"standing_booking_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "standing_booking_standing_booking_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"weekday" smallint NOT NULL,
	"start_minute" smallint NOT NULL,
	"spot" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "standing_booking_weekday_check" CHECK ("standing_booking"."weekday" between 1 and 7),
	CONSTRAINT "standing_booking_start_minute_check" CHECK ("standing_booking"."start_minute" between 0 and 1439)
);
--> statement-breakpoint
CREATE TABLE "standing_booking_week" (
	"standing_booking_id" integer NOT NULL,
	"single_class_id" integer NOT NULL,
	"class_reservation_id" integer,
	"refusal" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "standing_booking_week_standing_booking_id_single_class_id_pk" PRIMARY KEY("standing_booking_id","single_class_id")
);
--> statement-breakpoint
ALTER TABLE "standing_booking" ADD CONSTRAINT "standing_booking_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_booking" ADD CONSTRAINT "standing_booking_class_type_id_class_type_class_type_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_type"("class_type_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_booking" ADD CONSTRAINT "standing_booking_location_id_location_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."location"("location_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_booking_week" ADD CONSTRAINT "standing_booking_week_standing_booking_id_standing_booking_standing_booking_id_fk" FOREIGN KEY ("standing_booking_id") REFERENCES "public"."standing_booking"("standing_booking_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_booking_week" ADD CONSTRAINT "standing_booking_week_single_class_id_single_class_single_class_id_fk" FOREIGN KEY ("single_class_id") REFERENCES "public"."single_class"("single_class_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standing_booking_week" ADD CONSTRAINT "standing_booking_week_class_reservation_id_class_reservation_class_reservation_id_fk" FOREIGN KEY ("class_reservation_id") REFERENCES "public"."class_reservation"("class_reservation_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "standing_booking_customer_idx" ON "standing_booking" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "standing_booking_slot_key" ON "standing_booking" USING btree ("customer_id","class_type_id","location_id","weekday","start_minute") WHERE "standing_booking"."ended_at" is null;