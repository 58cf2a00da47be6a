-- Issue 18, decision 028: a guest takes a seat as well as a place, and may be paid
-- with one more of the booker's credits (app config guest_uses_credit).
-- class_reservation.guest_spot is the guest's seat; guest_available_class_id the
-- credit that paid for the guest, given back with the booker's on cancelling.
ALTER TABLE "class_reservation" ADD COLUMN "guest_spot" integer;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD COLUMN "guest_available_class_id" integer;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD CONSTRAINT "class_reservation_guest_available_class_id_available_classes_available_class_id_fk" FOREIGN KEY ("guest_available_class_id") REFERENCES "public"."available_classes"("available_class_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "class_reservation_guest_spot_key" ON "class_reservation" USING btree ("single_class_id","guest_spot") WHERE "class_reservation"."guest_spot" is not null and "class_reservation"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD CONSTRAINT "class_reservation_guest_spot_check" CHECK ("class_reservation"."guest_spot" is null or ("class_reservation"."guest_spot" >= 1 and "class_reservation"."guest" is not null and "class_reservation"."guest_spot" is distinct from "class_reservation"."spot"));