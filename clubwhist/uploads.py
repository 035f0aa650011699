"""The upload handler that keeps no more of a file than UPLOAD_MAX_BYTES.

Django keeps every uploaded file whole, in memory or in a temporary file, whatever its size:
DATA_UPLOAD_MAX_MEMORY_SIZE counts a form's fields, not its files. This handler comes first in
FILE_UPLOAD_HANDLERS and passes a file's bytes on to Django's own handlers until the file
passes the limit; from then on it only counts them. The view then gets a `TooBigUpload`: no
content, and the size the file really had, so the form can refuse it saying how big it was
and what the limit is, instead of the server holding a gigabyte to say no.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler

if TYPE_CHECKING:
    _Upload = UploadedFile[bytes]  # generic in the type stubs only
else:
    _Upload = UploadedFile


class TooBigUpload(_Upload):
    """A file refused for its size: its name and true size, none of its content."""

    def __init__(self, name: str, content_type: str, size: int, charset: str | None) -> None:
        super().__init__(io.BytesIO(), name, content_type, size, charset)


class CappedUploadHandler(FileUploadHandler):
    """Stops handing a file on once it is over the limit; counts the rest."""

    def __init__(self, request: Any = None) -> None:
        super().__init__(request)
        self.limit: int = settings.UPLOAD_MAX_BYTES
        self.over = False

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.over = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        # `start` is how much of this file came before this chunk; None keeps the chunk from
        # the handlers after this one, which so hold at most `limit` bytes of it.
        if start + len(raw_data) > self.limit:
            self.over = True
        return None if self.over else raw_data

    def file_complete(self, file_size: int) -> _Upload | None:
        if not self.over:
            return None  # the next handler has the whole file
        return TooBigUpload(self.file_name or "", self.content_type or "", file_size, self.charset)
