-- Products sold at the counter (water, grip socks, towels) with their stock, replicated to the desks with the change-log
-- triggers of 0005_sync_triggers.sql; and the product lines of the counter's sales, with the drawer shift they were paid in.
CREATE TABLE "product" (
	"product_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_product_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"stock" integer,
	"available" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "product_price_check" CHECK ("product"."price" >= 0),
	CONSTRAINT "product_stock_check" CHECK ("product"."stock" is null or "product"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_sale" (
	"product_sale_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_sale_product_sale_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"title" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" numeric(12, 2) NOT NULL,
	"total" numeric(12, 2) NOT NULL,
	"payment_method_id" integer,
	"staff_id" integer,
	"cash_shift_id" integer,
	"terminal_last4" text,
	"terminal_auth" text,
	"paid_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_sale_amounts_check" CHECK ("product_sale"."quantity" > 0 and "product_sale"."unit_price" >= 0 and "product_sale"."total" >= 0)
);
--> statement-breakpoint
ALTER TABLE "product_sale" ADD CONSTRAINT "product_sale_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sale" ADD CONSTRAINT "product_sale_product_id_product_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("product_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sale" ADD CONSTRAINT "product_sale_payment_method_id_payment_method_payment_method_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_method"("payment_method_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sale" ADD CONSTRAINT "product_sale_staff_id_customer_customer_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_sale" ADD CONSTRAINT "product_sale_cash_shift_id_cash_shift_cash_shift_id_fk" FOREIGN KEY ("cash_shift_id") REFERENCES "public"."cash_shift"("cash_shift_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_sale_paid_at_idx" ON "product_sale" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "product_sale_cash_shift_id_idx" ON "product_sale" USING btree ("cash_shift_id");--> statement-breakpoint
CREATE INDEX "product_sale_customer_id_idx" ON "product_sale" USING btree ("customer_id");
--> statement-breakpoint
CREATE TRIGGER product_sync_log AFTER INSERT OR DELETE ON "product" FOR EACH ROW EXECUTE FUNCTION sync_log_change('product_id');
--> statement-breakpoint
CREATE TRIGGER product_sync_log_update AFTER UPDATE ON "product" FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION sync_log_change('product_id');
