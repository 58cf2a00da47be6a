ALTER TABLE "customer" DROP CONSTRAINT "customer_role_check";--> statement-breakpoint
CREATE UNIQUE INDEX "instructor_customer_id_key" ON "instructor" USING btree ("customer_id");--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_role_check" CHECK ("customer"."role" in ('customer', 'staff', 'admin', 'coach'));