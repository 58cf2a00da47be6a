-- Issue 21, decision 047: the admin's customer search ('%text%' over name, last
-- name, e-mail and phone, accents and case folded) scanned the whole customer
-- table; a trigram GIN index answers it. pg_trgm ships with PostgreSQL's contrib
-- and with PGlite (createDb loads it). search_fold is core's searchKey in SQL
-- (core/src/search-key.ts, searchFold: the same letters, in the same order;
-- server/test/customer-search-index.test.ts checks they agree): immutable with its strings
-- written in, so an expression index can hold it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_fold(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(translate($1, 'ÁÀÂÄÃÅĀĂĄáàâäãåāăąÇĆČçćčÉÈÊËĒĖĘĚéèêëēėęěÍÌÎÏĪíìîïīÑŃŇñńňÓÒÔÖÕØŌóòôöõøōÚÙÛÜŪŮúùûüūůÝŸýÿŠšŚśŽžŹźŻż', 'aaaaaaaaaaaaaaaaaacccccceeeeeeeeeeeeeeeeiiiiiiiiiinnnnnnoooooooooooooouuuuuuuuuuuuyyyysssszzzzzz'))
$$;--> statement-breakpoint
CREATE INDEX "customer_search_idx" ON "customer" USING gin (search_fold("name" || ' ' || "last_name" || ' ' || "email" || ' ' || coalesce("phone", '')) gin_trgm_ops);