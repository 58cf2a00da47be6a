-- Issue 17, decision 021: messages leave the server and the studio keeps a clock.
-- outbox_message gains what delivery needs (kind, customer, HTML, attachments,
-- WhatsApp template, an idempotency key, backoff and a sender lease);
-- message_preference keeps each customer's channels and private tokens;
-- messaging_settings keeps SMTP and WhatsApp (admin-only); scheduled_job is
-- the clock; class_reservation.no_show_at marks no-shows.
CREATE TABLE "message_preference" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"email_enabled" boolean DEFAULT true NOT NULL,
	"whatsapp_enabled" boolean DEFAULT true NOT NULL,
	"stop_token" text NOT NULL,
	"calendar_token" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messaging_settings" (
	"messaging_settings_id" integer PRIMARY KEY NOT NULL,
	"smtp_host" text,
	"smtp_port" integer,
	"smtp_secure" boolean,
	"smtp_user" text,
	"smtp_password" text,
	"smtp_from" text,
	"whatsapp_phone_number_id" text,
	"whatsapp_access_token" text,
	"whatsapp_api_base" text,
	"whatsapp_template_language" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_settings_single_row" CHECK ("messaging_settings"."messaging_settings_id" = 1)
);
--> statement-breakpoint
CREATE TABLE "scheduled_job" (
	"name" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"state" jsonb
);
--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "kind" text DEFAULT 'general' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "customer_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "whatsapp_template" jsonb;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
-- Milliseconds, as the worker's clock reads them: a row queued in the same millisecond as a claim is due in it (now() has microseconds).
ALTER TABLE "outbox_message" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT date_trunc('milliseconds', now()) NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox_message" ADD COLUMN "provider_message_id" text;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD COLUMN "no_show_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_preference" ADD CONSTRAINT "message_preference_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "message_preference_stop_token_key" ON "message_preference" USING btree ("stop_token");--> statement-breakpoint
CREATE UNIQUE INDEX "message_preference_calendar_token_key" ON "message_preference" USING btree ("calendar_token");--> statement-breakpoint
ALTER TABLE "outbox_message" ADD CONSTRAINT "outbox_message_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_message_due_idx" ON "outbox_message" USING btree ("next_attempt_at") WHERE "outbox_message"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_message_dedupe_key" ON "outbox_message" USING btree ("dedupe_key");