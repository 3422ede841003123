-- SQLite's NOCASE folds ASCII letters only, and so does lower() in the C collation (whatever the
-- database's own): `x = ? COLLATE NOCASE` is `redline_nocase(x) = redline_nocase($1)` here, and
-- `ORDER BY x COLLATE NOCASE` is `ORDER BY redline_nocase(x)`.
CREATE FUNCTION redline_nocase(input text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN lower(input COLLATE "C") COLLATE "C";
