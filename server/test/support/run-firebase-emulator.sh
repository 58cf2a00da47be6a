#!/usr/bin/env sh
# Runs the Firebase provider test against the Firebase Auth emulator (firebase-tools,
# offline, no Java needed for auth). emulators:exec starts the emulator from
# server/firebase.json, sets FIREBASE_AUTH_EMULATOR_HOST for the command, and stops it after.
set -eu
here="$(cd "$(dirname "$0")/../.." && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$here"
exec npx firebase emulators:exec --only auth --project demo-estudio \
  "cd '$root' && npx vitest run server/test/auth/firebase.emulator.test.ts"
