"""Loading libtally through cffi (ABI mode) and the small helpers every module shares.

ABI mode (`ffi.dlopen`) needs no C compiler and no Python headers: the package is pure Python and
works with whichever libtally it finds. The declarations come from `_cdef.py`, generated from the
public headers at build time. cffi releases the GIL around every call into the library.
"""

import contextlib
import ctypes.util
import functools
import inspect
import math
import numbers
import os
import threading

import cffi

from . import _cdef, _paths
from .errors import BY_CODE_NAME, TallyError

ffi = cffi.FFI()
ffi.cdef(_cdef.CDEF)


def _library_candidates():
    """Where libtally may be, most specific first; see docs/python.md."""
    explicit = os.environ.get("TALLY_LIBRARY")
    if explicit:
        return [explicit]
    here = os.path.dirname(os.path.abspath(__file__))
    names = [_paths.SONAME, "libtally.so"]
    found = [os.path.join(d, n) for d in [here] + list(_paths.LIBRARY_DIRS) for n in names]
    found = [path for path in found if os.path.exists(path)]
    system = ctypes.util.find_library("tally")
    if system:
        found.append(system)
    return found


def _load_library():
    candidates = _library_candidates()
    errors = []
    for path in candidates:
        try:
            loaded = ffi.dlopen(path)
        except OSError as exc:
            errors.append(f"{path}: {exc}")
            continue
        # A bare soname came from the linker's search path; anything else is made absolute.
        return loaded, os.path.abspath(path) if os.sep in path else path
    detail = "; ".join(errors) if errors else "no libtally found next to the package, in " \
        f"{', '.join(_paths.LIBRARY_DIRS) or '(no install libdir)'} or on the linker path"
    raise ImportError(f"tally: cannot load libtally ({detail}); set TALLY_LIBRARY to its path")


lib, library_path = _load_library()


# ---- options structs filled by the library ---------------------------------------------------

def new_options(ctype):
    """A new `ctype` struct (e.g. "tally_summary_options") holding the library's defaults.

    `tally_<x>_options_init(opts, TALLY_<X>_OPTIONS_VERSION)` fills it: the defaults are written
    once, in the library, and the version is the one of the headers the declarations were
    generated from (any library at least that new reads the struct).
    """
    if not ctype.endswith("_options"):
        raise ValueError(f"{ctype!r} is not an options struct")
    opts = ffi.new(ctype + " *")
    version = getattr(lib, ctype.upper() + "_VERSION")
    check(getattr(lib, ctype + "_init")(opts, version))
    return opts


def flag(value, argname):
    """A bool option as the int the C struct holds (TypeError for anything but a bool)."""
    if not isinstance(value, bool):
        raise TypeError(f"{argname} must be a bool, not {type(value).__name__}")
    return int(value)


def enum_of(kind):
    """A converter of names of the library's enum `kind` (e.g. "test") for fill_options()."""
    return lambda value, argname: enum_from_name(kind, value, argname)


def fill_options(opts, table, values):
    """Set the fields of the options struct `opts` for the keywords of `values` that are not
    None; `table` maps a keyword to (field, converter(value, keyword)). A converter returning
    bytes sets a C string. Returns the C strings the struct now points to: keep them alive while
    the struct is used (and the owned pointers converters return). None leaves the library's
    default in the field."""
    keep = []
    for name, value in values.items():
        if value is None:
            continue
        field, convert = table[name]
        converted = convert(value, name)
        if isinstance(converted, bytes):
            keep.append(ffi.new("char[]", converted))
            converted = keep[-1]
        elif isinstance(converted, ffi.CData):
            keep.append(converted)  # an owned pointer (freed when collected): alive for the call
        setattr(opts, field, converted)
    return keep


# ---- errors -------------------------------------------------------------------------------

_CLASSES = {getattr(lib, name): cls for name, cls in BY_CODE_NAME.items()}


def _text(ptr):
    return None if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")


def error_from_last(code):
    """The exception for return code `code`, with the calling thread's last error message."""
    err = lib.tally_error_last()
    if err.code == code and err.message != ffi.NULL and err.message[0] != b"\0":
        message = _text(err.message)
        file, json_path = _text(err.file), _text(err.json_path)
        line, column = err.line or None, err.column or None
    else:
        message = _text(lib.tally_strerror(code))
        file = json_path = line = column = None
    cls = _CLASSES.get(code, TallyError)
    return cls(message, code=code, file=file, line=line, column=column, json_path=json_path)


def check(code):
    """Raise the matching TallyError when a library call returned a negative code."""
    if code < 0:
        raise error_from_last(code)
    return code


# ---- argument conversion ------------------------------------------------------------------

def text(ptr):
    """A borrowed C string as str ("" for NULL)."""
    return _text(ptr) or ""


def cstring(value, argname):
    """A str argument as NUL-terminated UTF-8 bytes; TypeError/ValueError before reaching C."""
    if not isinstance(value, str):
        raise TypeError(f"{argname} must be a str, not {type(value).__name__}")
    data = value.encode("utf-8")
    if b"\0" in data:
        raise ValueError(f"{argname} must not contain NUL characters")
    return data


def cpath(value, argname="path"):
    """A path argument (str, bytes or os.PathLike) as bytes for the C library."""
    try:
        data = os.fsencode(value)
    except TypeError:
        raise TypeError(f"{argname} must be a path (str, bytes or os.PathLike), "
                        f"not {type(value).__name__}") from None
    if b"\0" in data or not data:
        raise ValueError(f"{argname} must be a non-empty path without NUL characters")
    return data


def real(value, argname):
    """A finite float from a real-number argument (bool, None, NaN and infinity rejected)."""
    if type(value) is float and math.isfinite(value):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{argname} must be a real number, not {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{argname} must be finite, not {value}")
    return value


# The library's name tables are static, so lookups are remembered: (kind, name) -> value and
# (kind, value) -> name.
_FROM_NAME = {}
_NAME_OF = {}


def enum_from_name(kind, value, argname):
    """Parse `value` with the library's tally_<kind>_from_name(); names are the C library's."""
    found = _FROM_NAME.get((kind, value)) if type(value) is str else None
    if found is not None:
        return found
    data = cstring(value, argname)
    out = ffi.new(f"tally_{kind} *")
    code = getattr(lib, f"tally_{kind}_from_name")(out, data)
    if code < 0:
        err = error_from_last(code)
        raise type(err)(f"invalid {argname} {value!r}: {err.message}", code=code)
    _FROM_NAME[(kind, value)] = out[0]
    return out[0]


def enum_name(kind, value):
    """The library's name for an enum value, e.g. enum_name("verdict", 2) -> "regression"."""
    name = _NAME_OF.get((kind, value))
    if name is None:
        name = _NAME_OF[(kind, value)] = text(getattr(lib, f"tally_{kind}_name")(value))
    return name


def take_buffer(out, length):
    """Decode and free a buffer the library returned through `char **out, size_t *len`."""
    try:
        return ffi.unpack(out[0], length[0]).decode("utf-8")
    finally:
        lib.tally_free(out[0])


def new_result(ctype):
    """A new result struct (e.g. "tally_summary") with its leading `size` set, as the library
    requires of every struct it fills (docs/internals/CODE_STYLE.md, "Result structs")."""
    out = ffi.new(ctype + " *")
    out.size = ffi.sizeof(ctype)
    return out


# Members of an Owner or a view that run without counting as a call in flight: the life cycle
# itself, and the reprs, which show "(closed)" rather than raise once the handle is closed.
_UNGUARDED = frozenset(("__init__", "__new__", "__init_subclass__", "__enter__", "__exit__",
                        "__del__", "close", "_handle", "_own", "_adopt", "_enter", "_leave",
                        "_use", "_closed_repr", "__getattribute__", "__setattr__"))
_LENIENT = frozenset(("__repr__", "_repr_html_", "_repr_markdown_"))


def _guarded(fn, owner_of, lenient):
    """fn as a call in flight on its owner's handle: counted from entry to return, so that
    close() from another thread waits for it instead of freeing memory fn still reads. A
    generator counts around each step, so one left unfinished never holds close() back."""
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def steps(self, *args, **kwargs):
            owner = owner_of(self)
            owner._enter()
            try:
                it = fn(self, *args, **kwargs)
            finally:
                owner._leave()
            while True:
                owner._enter()
                try:
                    item = next(it)
                except StopIteration:
                    return
                finally:
                    owner._leave()
                yield item
        return steps

    @functools.wraps(fn)
    def call(self, *args, **kwargs):
        owner = owner_of(self)
        try:
            owner._enter()
        except ValueError:
            if lenient:  # a repr of a closed object says so
                return fn(self, *args, **kwargs)
            raise
        try:
            return fn(self, *args, **kwargs)
        finally:
            owner._leave()
    return call


def guard_members(cls, owner_of):
    """Wrap every method and property accessor defined in `cls` with _guarded."""
    for name, member in list(vars(cls).items()):
        if name in _UNGUARDED:
            continue
        if isinstance(member, property):
            setattr(cls, name, property(
                *(None if f is None else _guarded(f, owner_of, False)
                  for f in (member.fget, member.fset, member.fdel)), member.__doc__))
        elif inspect.isfunction(member):
            setattr(cls, name, _guarded(member, owner_of, name in _LENIENT))


class Owner:
    """Base of the objects that own one C handle in `_ptr` (Results, Report): `close()`, use in a
    `with` block, and `_handle()`, which every method calls so that use after close raises
    ValueError instead of reaching freed memory. The handle's destructor is attached by the
    subclass with ffi.gc, through `_own`.

    Every method of a subclass (and of the views of a Results) counts as a call in flight while
    it runs (`__init_subclass__` wraps them): close() from another thread waits until none is
    left and admits no new one meanwhile, so no interleaving of close() and a method frees
    memory a call still reads. close() from inside a call on the same object (a callback) would
    wait for itself: it raises RuntimeError instead."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        guard_members(cls, lambda self: self)

    def _own(self, ptr, destructor):
        """Take ownership of a fresh C handle."""
        self._guard = threading.Condition(threading.Lock())
        self._calls = {}  # thread ident -> depth of its calls in flight
        self._closing = False
        self._ptr = ffi.gc(ptr, destructor)

    def _enter(self):
        """Count a call in flight (ValueError once closed or closing) and return the handle."""
        me = threading.get_ident()
        guard = getattr(self, "_guard", None)
        if guard is None:  # its constructor failed before it owned a handle
            raise ValueError(f"this {self._kind} was closed")
        with guard:
            depth = self._calls.get(me, 0)
            # A nested call of a thread already inside goes on while close() waits for it.
            if self._ptr is None or (self._closing and depth == 0):
                raise ValueError(f"this {self._kind} was closed")
            self._calls[me] = depth + 1
            return self._ptr

    def _leave(self):
        me = threading.get_ident()
        with self._guard:
            depth = self._calls[me] - 1
            if depth:
                self._calls[me] = depth
            else:
                del self._calls[me]
                if not self._calls:
                    self._guard.notify_all()

    @contextlib.contextmanager
    def _use(self):
        """The handle, counted as in flight for the block (for calls that take this object as an
        argument of another one's method, as Report(results) does)."""
        handle = self._enter()
        try:
            yield handle
        finally:
            self._leave()

    def close(self) -> None:
        """Free the C object now; it and every view taken from it raise ValueError afterwards.
        Waits for the calls other threads have in flight on it to return."""
        guard = getattr(self, "_guard", None)
        if guard is None:  # never owned a handle
            return
        with guard:
            if self._ptr is None:
                return
            if threading.get_ident() in self._calls:
                raise RuntimeError(f"close() of a {self._kind} called from inside a call on it")
            self._closing = True
            while self._calls:
                self._guard.wait()
            ffi.release(self._ptr)
            self._ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _handle(self):
        if self._ptr is None:
            raise ValueError(f"this {self._kind} was closed")
        return self._ptr
