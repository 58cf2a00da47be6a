CREATE TABLE "renewal_payment" (
	"renewal_payment_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "renewal_payment_renewal_payment_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"purchase_id" integer NOT NULL,
	"cycle" integer NOT NULL,
	"channel" text NOT NULL,
	"provider_payment_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"payment_instructions" jsonb,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_payment_status_check" CHECK ("renewal_payment"."status" in ('pending', 'paid', 'expired')),
	CONSTRAINT "renewal_payment_channel_check" CHECK ("renewal_payment"."channel" in ('oxxo', 'spei'))
);
--> statement-breakpoint
CREATE TABLE "cfdi" (
	"cfdi_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cfdi_cfdi_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"charge_id" integer,
	"purchase_id" integer,
	"customer_id" integer,
	"related_cfdi_id" integer,
	"receiver" jsonb NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"payment_form" text NOT NULL,
	"period_key" text,
	"global_months" text,
	"global_year" integer,
	"global_periodicity" text,
	"requested_by" integer,
	"provider_id" text,
	"uuid" text,
	"series" text,
	"folio" text,
	"xml" text,
	"pdf_base64" text,
	"failure_reason" text,
	"cancel_motive" text,
	"cancellation_status" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"stamped_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cfdi_kind_check" CHECK ("cfdi"."kind" in ('invoice', 'global', 'credit_note')),
	CONSTRAINT "cfdi_status_check" CHECK ("cfdi"."status" in ('pending', 'stamped', 'failed', 'cancelling', 'cancelled')),
	CONSTRAINT "cfdi_total_check" CHECK ("cfdi"."total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "cfdi_global_charge" (
	"cfdi_id" integer NOT NULL,
	"charge_id" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pac_settings" (
	"pac_settings_id" integer PRIMARY KEY NOT NULL,
	"facturapi_key" text,
	"webhook_secret" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pac_settings_single_row" CHECK ("pac_settings"."pac_settings_id" = 1)
);
--> statement-breakpoint
CREATE TABLE "tax_profile" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"rfc" text NOT NULL,
	"legal_name" text NOT NULL,
	"tax_regime" text NOT NULL,
	"cfdi_use" text NOT NULL,
	"postcode" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "payment_channel" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "hold_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "payment_instructions" jsonb;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "installments" integer;--> statement-breakpoint
ALTER TABLE "renewal_payment" ADD CONSTRAINT "renewal_payment_purchase_id_purchase_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("purchase_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi" ADD CONSTRAINT "cfdi_charge_id_invoice_invoice_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."invoice"("invoice_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi" ADD CONSTRAINT "cfdi_purchase_id_purchase_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("purchase_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi" ADD CONSTRAINT "cfdi_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi" ADD CONSTRAINT "cfdi_requested_by_customer_customer_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi_global_charge" ADD CONSTRAINT "cfdi_global_charge_cfdi_id_cfdi_cfdi_id_fk" FOREIGN KEY ("cfdi_id") REFERENCES "public"."cfdi"("cfdi_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi_global_charge" ADD CONSTRAINT "cfdi_global_charge_charge_id_invoice_invoice_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."invoice"("invoice_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_profile" ADD CONSTRAINT "tax_profile_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_payment_cycle_key" ON "renewal_payment" USING btree ("purchase_id","cycle");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_payment_provider_key" ON "renewal_payment" USING btree ("provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cfdi_invoice_charge_key" ON "cfdi" USING btree ("charge_id") WHERE "cfdi"."kind" = 'invoice' and "cfdi"."status" <> 'cancelled';--> statement-breakpoint
CREATE UNIQUE INDEX "cfdi_provider_id_key" ON "cfdi" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cfdi_global_period_key" ON "cfdi" USING btree ("period_key","payment_form") WHERE "cfdi"."kind" = 'global';--> statement-breakpoint
CREATE INDEX "cfdi_due_idx" ON "cfdi" USING btree ("next_attempt_at") WHERE "cfdi"."status" in ('pending', 'cancelling');--> statement-breakpoint
CREATE INDEX "cfdi_purchase_id_idx" ON "cfdi" USING btree ("purchase_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cfdi_global_charge_key" ON "cfdi_global_charge" USING btree ("charge_id");--> statement-breakpoint
CREATE INDEX "cfdi_global_charge_cfdi_idx" ON "cfdi_global_charge" USING btree ("cfdi_id");--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_payment_channel_check" CHECK ("purchase"."payment_channel" is null or "purchase"."payment_channel" in ('oxxo', 'spei'));--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_installments_check" CHECK ("purchase"."installments" is null or "purchase"."installments" in (3, 6, 9, 12));