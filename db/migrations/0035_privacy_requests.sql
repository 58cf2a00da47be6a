-- A customer's requests under Mexico's data-protection law (ARCO), with the day the law's deadline falls on (decision 124).
CREATE TABLE "privacy_request" (
	"privacy_request_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "privacy_request_privacy_request_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"details" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"due_on" date NOT NULL,
	"answer" text,
	"answered_by" integer,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "privacy_request_kind_check" CHECK ("privacy_request"."kind" in ('access', 'rectification', 'cancellation', 'opposition')),
	CONSTRAINT "privacy_request_status_check" CHECK ("privacy_request"."status" in ('pending', 'done', 'refused')),
	CONSTRAINT "privacy_request_details_check" CHECK (length("privacy_request"."details") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "privacy_request" ADD CONSTRAINT "privacy_request_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_request" ADD CONSTRAINT "privacy_request_answered_by_customer_customer_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "privacy_request_customer_idx" ON "privacy_request" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "privacy_request_pending_idx" ON "privacy_request" USING btree ("due_on") WHERE "privacy_request"."status" = 'pending';