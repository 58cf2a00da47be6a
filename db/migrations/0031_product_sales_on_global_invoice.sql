-- Products sold at the counter go on the global invoice of their period, each sale line once, as the charges do.
CREATE TABLE "cfdi_global_product_sale" (
	"cfdi_id" integer NOT NULL,
	"product_sale_id" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cfdi_global_product_sale" ADD CONSTRAINT "cfdi_global_product_sale_cfdi_id_cfdi_cfdi_id_fk" FOREIGN KEY ("cfdi_id") REFERENCES "public"."cfdi"("cfdi_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cfdi_global_product_sale" ADD CONSTRAINT "cfdi_global_product_sale_product_sale_id_product_sale_product_sale_id_fk" FOREIGN KEY ("product_sale_id") REFERENCES "public"."product_sale"("product_sale_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cfdi_global_product_sale_key" ON "cfdi_global_product_sale" USING btree ("product_sale_id");--> statement-breakpoint
CREATE INDEX "cfdi_global_product_sale_cfdi_idx" ON "cfdi_global_product_sale" USING btree ("cfdi_id");