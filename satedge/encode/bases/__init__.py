"""satedge's base encodings, one module each, each declaring itself once as ``BASE``
(:class:`satedge.encode.base.Base`): :mod:`.direct`, :mod:`.support`, :mod:`.split`,
:mod:`.edgecolor` and :mod:`.heule`.  :mod:`satedge.encode.registry` finds every module here;
a new base encoding is a new module, nothing else."""

__all__ = ()
