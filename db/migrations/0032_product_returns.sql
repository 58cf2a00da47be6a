-- Units of a counter sale brought back and the money handed back for them (from the drawer, or on the card).
CREATE TABLE "product_return" (
	"product_return_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "product_return_product_return_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"product_sale_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"cash_part" numeric(12, 2) NOT NULL,
	"restocked" boolean NOT NULL,
	"reason" text NOT NULL,
	"staff_id" integer,
	"cash_shift_id" integer,
	"returned_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_return_amounts_check" CHECK ("product_return"."quantity" > 0 and "product_return"."amount" >= 0 and "product_return"."cash_part" >= 0 and "product_return"."cash_part" <= "product_return"."amount")
);
--> statement-breakpoint
ALTER TABLE "product_return" ADD CONSTRAINT "product_return_product_sale_id_product_sale_product_sale_id_fk" FOREIGN KEY ("product_sale_id") REFERENCES "public"."product_sale"("product_sale_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_return" ADD CONSTRAINT "product_return_staff_id_customer_customer_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_return" ADD CONSTRAINT "product_return_cash_shift_id_cash_shift_cash_shift_id_fk" FOREIGN KEY ("cash_shift_id") REFERENCES "public"."cash_shift"("cash_shift_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_return_sale_idx" ON "product_return" USING btree ("product_sale_id");--> statement-breakpoint
CREATE INDEX "product_return_returned_at_idx" ON "product_return" USING btree ("returned_at");--> statement-breakpoint
CREATE INDEX "product_return_cash_shift_id_idx" ON "product_return" USING btree ("cash_shift_id");