"""satedge's engines, one module each, each declaring itself once as ``ENGINE``
(:class:`satedge.jobs.engine.Engine`): its job functions, its options, what it needs and its
preference for ``--method auto``.  :mod:`satedge.jobs.registry` finds every module here, as it
finds yours; a new engine is a new module, its test and its page in the documentation.

Nothing in satedge imports these modules by name: they import the job layer, which runs them."""

__all__ = ()
