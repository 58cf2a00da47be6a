-- A new studio opens to the public when its owner publishes it (decision 129); a studio already in use stays published.
INSERT INTO "app_config" ("key", "value")
SELECT 'studio_published', 'true'
WHERE EXISTS (SELECT 1 FROM "customer" WHERE "role" = 'customer')
   OR EXISTS (SELECT 1 FROM "single_class")
   OR EXISTS (SELECT 1 FROM "class_package")
ON CONFLICT ("key") DO NOTHING;
