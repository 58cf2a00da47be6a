-- Issue 16, decision 016: each reservation gets an unguessable access code for
-- its QR. Ten characters of Crockford's base-32 alphabet (no I, L, O, U) from
-- gen_random_uuid(), a strong random source built into PostgreSQL 13+ and
-- PGlite: 10 of its random bytes, each reduced mod 32 (256 is a multiple of
-- 32, so no bias; bytes 6 and 8 carry the UUID's version bits and are skipped).
CREATE FUNCTION reservation_access_code() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  bytes bytea := uuid_send(gen_random_uuid());
  i integer;
  code text := '';
BEGIN
  FOREACH i IN ARRAY ARRAY[0, 1, 2, 3, 4, 5, 9, 10, 11, 12] LOOP
    code := code || substr(alphabet, get_byte(bytes, i) % 32 + 1, 1);
  END LOOP;
  RETURN code;
END
$$;
--> statement-breakpoint
ALTER TABLE "class_reservation" ADD COLUMN "access_code" text;
--> statement-breakpoint
-- Row by row, so the sync triggers log every reservation and the desks pull their codes.
UPDATE "class_reservation" SET "access_code" = reservation_access_code();
--> statement-breakpoint
ALTER TABLE "class_reservation" ALTER COLUMN "access_code" SET DEFAULT reservation_access_code();
--> statement-breakpoint
ALTER TABLE "class_reservation" ALTER COLUMN "access_code" SET NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "class_reservation_access_code_key" ON "class_reservation" USING btree ("access_code");
