"""The browsable lemma graph: the graph itself (:mod:`.graph`), its HTML page
(:mod:`.html`), the cache of Coq facts (:mod:`.cache`), the docs site with coqdoc and
source pages (:mod:`.docs`) and the paper view (:mod:`.paper`)."""
