"""Text primitives shared by the build and the query: normal form, segmentation,
name forms, the card-name scanner, the English glossary. Pure functions; no store."""
