-- A rotated refresh token keeps its successor, sealed under a key only it derives, for a lost answer (decision 126).
ALTER TABLE "refresh_token" ADD COLUMN "successor_sealed" text;