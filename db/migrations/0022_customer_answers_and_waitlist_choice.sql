-- Decision 087: a customer's answers to the studio's own questions
-- (custom fields and the extra fields of its customer forms), one row per key,
-- with the moment of express consent for sensitive ones (health); the customer
-- forms say where they are asked ('signup', 'booking', 'profile'), and a
-- studio's first customer form, its sign-up form, keeps being asked at sign-up.
-- Decision 088: a waiting customer's choice to be booked automatically.
-- Decision 092: a class type's level and what to bring, for the class's details.
CREATE TABLE "customer_field_value" (
	"customer_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" jsonb,
	"consented_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_field_value_customer_id_key_pk" PRIMARY KEY("customer_id","key")
);
--> statement-breakpoint
ALTER TABLE "custom_field" ADD COLUMN "sensitive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "form" ADD COLUMN "placement" text DEFAULT 'profile' NOT NULL;--> statement-breakpoint
ALTER TABLE "class_type" ADD COLUMN "level" text;--> statement-breakpoint
ALTER TABLE "class_type" ADD COLUMN "what_to_bring" text;--> statement-breakpoint
ALTER TABLE "waitlist" ADD COLUMN "auto_book" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_field_value" ADD CONSTRAINT "customer_field_value_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form" ADD CONSTRAINT "form_placement_check" CHECK ("form"."placement" in ('signup', 'booking', 'profile'));--> statement-breakpoint
UPDATE "form" SET "placement" = 'signup' WHERE "form_id" = (SELECT min("form_id") FROM "form" WHERE "object" = 'customer');
