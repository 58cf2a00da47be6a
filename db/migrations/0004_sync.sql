CREATE TABLE "sync_change" (
	"change_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sync_change_change_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"txid" bigint NOT NULL,
	"table_name" text NOT NULL,
	"row_key" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_client" (
	"client_id" text PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"last_mutation_id" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_mutation" (
	"client_id" text NOT NULL,
	"mutation_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"txid" bigint NOT NULL,
	"name" text NOT NULL,
	"args" jsonb NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_mutation_client_id_mutation_id_pk" PRIMARY KEY("client_id","mutation_id"),
	CONSTRAINT "sync_mutation_status_check" CHECK ("sync_mutation"."status" in ('applied', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "sync_client" ADD CONSTRAINT "sync_client_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_mutation" ADD CONSTRAINT "sync_mutation_client_id_sync_client_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sync_client"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_change_position_idx" ON "sync_change" USING btree ("txid","change_id");--> statement-breakpoint
CREATE INDEX "sync_mutation_txid_idx" ON "sync_mutation" USING btree ("client_id","txid");