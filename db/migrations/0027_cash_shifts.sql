-- Shifts at the cash drawer: who opened it, the float, the count at the close. A desk sale or refund in cash carries
-- the shift it was taken in, and a card charged on the counter's terminal its slip's last digits and authorization. Not replicated
-- to the desks: opening and closing the drawer happen on the server.
CREATE TABLE "cash_shift" (
	"cash_shift_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cash_shift_cash_shift_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"staff_id" integer,
	"opened_at" timestamp with time zone NOT NULL,
	"opening_float" numeric(12, 2) NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" integer,
	"expected_cash" numeric(12, 2),
	"counted_cash" numeric(12, 2),
	"note" text,
	CONSTRAINT "cash_shift_amounts_check" CHECK ("cash_shift"."opening_float" >= 0 and ("cash_shift"."counted_cash" is null or "cash_shift"."counted_cash" >= 0))
);
--> statement-breakpoint
ALTER TABLE "invoice" ADD COLUMN "cash_shift_id" integer;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "terminal_last4" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "terminal_auth" text;--> statement-breakpoint
ALTER TABLE "purchase" ADD COLUMN "cash_shift_id" integer;--> statement-breakpoint
ALTER TABLE "cash_shift" ADD CONSTRAINT "cash_shift_staff_id_customer_customer_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_shift" ADD CONSTRAINT "cash_shift_closed_by_customer_customer_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_shift_one_open_key" ON "cash_shift" USING btree ("staff_id") WHERE "cash_shift"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "cash_shift_opened_at_idx" ON "cash_shift" USING btree ("opened_at");--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_cash_shift_id_cash_shift_cash_shift_id_fk" FOREIGN KEY ("cash_shift_id") REFERENCES "public"."cash_shift"("cash_shift_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_cash_shift_id_cash_shift_cash_shift_id_fk" FOREIGN KEY ("cash_shift_id") REFERENCES "public"."cash_shift"("cash_shift_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_cash_shift_id_idx" ON "invoice" USING btree ("cash_shift_id");--> statement-breakpoint
CREATE INDEX "purchase_cash_shift_id_idx" ON "purchase" USING btree ("cash_shift_id");