"""Running an evaluation: the run plan (`plan`), sending every request and keeping every attempt,
with resume (`runner`), and what produced the run beyond the plan (`provenance`)."""
